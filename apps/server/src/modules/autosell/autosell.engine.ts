import { createHash } from "node:crypto";
import {
  type AutosellAction,
  type AutosellReading,
  type AutosellTrigger,
  formatWeiAsBnb,
  percentBps,
  plural,
  tokenWords,
} from "@bundler/shared";
import { type Address, formatEther, formatUnits, getAddress } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { ServiceUnavailableError } from "../../lib/errors.ts";
import { failpoint } from "../../lib/failpoints.ts";
import type { BundleSells } from "../bundles/bundle-sells.ts";
import { bundleNotFound } from "../bundles/bundles.service.ts";
import type { PnlBundle, PnlRepository } from "../pnl/pnl.repository.ts";
import type { ArmedRule, AutosellPassRepository } from "./autosell-pass.repository.ts";
import type { AutosellPreview, DryRun, RuleSpec } from "./autosell-preview.ts";
import { failureWords } from "./autosell-problems.ts";
import { type AutosellReader, type Needs, NOT_LAUNCHPADS } from "./autosell-readings.ts";
import {
  INPUT_WORDS,
  inputsOf,
  needsOf,
  nextPeak,
  type ReadingInput,
  readingOf,
  readTrigger,
  type TokenReading,
  type TriggerMemory,
} from "./autosell-triggers.ts";
import { AutosellWaves } from "./autosell-waves.ts";

/** What a reading says, whatever its block: a short hash of its conditions' words and error. */
const signatureOf = (reading: AutosellReading) =>
  createHash("sha256")
    .update(reading.conditions.map((c) => `${c.tier ?? ""}|${c.met}|${c.text}`).join("\n"))
    .update(`\n${reading.error ?? ""}`)
    .digest("base64url")
    .slice(0, 22);

/** Basis points of the whole holdings: 100%. */
const ALL_BPS = 10_000n;

/** A rule's triggers: its own, or its ladder's tiers'. */
const triggersOf = (rule: { trigger: AutosellTrigger | null; action: AutosellAction }) =>
  "tiers" in rule.action
    ? rule.action.tiers.map((t) => t.trigger)
    : rule.trigger
      ? [rule.trigger]
      : [];

/**
 * The percent of each wallet's holdings now that tier `tier` sells, as an exact decimal (the
 * sale reads it with parseEther): a plain rule's percent (at most 2 decimals, so its basis
 * points exactly); a ladder's tier sells its share of the holdings the rule started with, over
 * what the tiers before it left, to 12 decimals rounded down.
 */
export const percentOf = (action: AutosellAction, tier: number, firedTiers: number[]): string => {
  if (!("tiers" in action)) return formatUnits(percentBps(action.percent), 2);
  const before = action.tiers
    .filter((_, i) => firedTiers.includes(i))
    .reduce((s, t) => s + percentBps(t.percent), 0n);
  const left = ALL_BPS - before;
  const share = percentBps(action.tiers[tier]?.percent ?? 0);
  if (left <= 0n || share >= left) return "100";
  return formatUnits((share * 100n * 10n ** 12n) / left, 12);
};

/** Who a firing sells from, in landing order: the chosen bundle wallets, then the developer. */
export const sellersOf = (action: AutosellAction, bundle: PnlBundle): string[] => {
  const chosen = action.wallets?.map((w) => w.toLowerCase());
  const wallets = bundle.wallets.filter(
    (w) => w !== bundle.deployer && (!chosen || chosen.includes(w)),
  );
  return action.includeDeveloper && bundle.deployer ? [...wallets, bundle.deployer] : wallets;
};

/**
 * Why some of the rule's conditions could not be read at this block (the inputs they need that
 * failed), as its reading's error; nothing when every input was read.
 */
const unreadOf = (
  rule: Pick<ArmedRule, "trigger" | "action" | "firedTiers">,
  reading: TokenReading,
): { error?: string } => {
  const triggers =
    "tiers" in rule.action
      ? rule.action.tiers.filter((_, i) => !rule.firedTiers.includes(i)).map((t) => t.trigger)
      : triggersOf(rule);
  const inputs = new Set<ReadingInput>(
    triggers.flatMap((t) => ("any" in t ? t.any : t.all).flatMap(inputsOf)),
  );
  const said = [...inputs].flatMap((input) => {
    const problem = reading.problems[input];
    return problem ? [`${INPUT_WORDS[input]}: ${problem.what} (${problem.why})`] : [];
  });
  return said.length > 0 ? { error: `Not read at this block: ${said.join("; ")}` } : {};
};

/**
 * Auto-sell's per-block pass (autosell.jobs.ts): reads every armed rule's inputs for the block
 * in a fixed number of requests (AutosellReader), keeps each rule's reading and trailing high,
 * records a firing under the rule's row lock before anything is signed (once per rule and
 * tier, whichever process gets there), then sells through the exit path: `BundleSells`, as
 * private bundles with a floor, keyed by (rule, tier, wave, wallet), so a wave sent again
 * after a crash answers what was recorded instead of selling twice.
 */
export class AutosellEngine implements AutosellPreview {
  private readonly waves: AutosellWaves;

  constructor(
    private readonly repo: AutosellPassRepository,
    private readonly pnl: PnlRepository,
    private readonly reader: AutosellReader,
    private readonly chain: ChainContext,
    sells: BundleSells,
    private readonly emit: (userId: string, message: string) => void,
    private readonly log: (message: string) => void,
    random: () => number = Math.random,
  ) {
    this.waves = new AutosellWaves(repo, pnl, chain, sells, emit, log, random);
  }

  /**
   * One block's work: evaluate, decide, then send every wave that is due. A failure of the
   * evaluation (the head or the database unreadable) still lets the decided waves go, and one
   * firing's failure is its own (an attempt of its wave), never the others'.
   */
  async pass(): Promise<void> {
    let head: bigint | null = null;
    try {
      const rules = await this.repo.armed();
      if (rules.length > 0) head = await this.evaluate(rules);
    } catch (cause) {
      this.log(`auto-sell: the rules were not evaluated at this block: ${failureWords(cause)}`);
    }
    head ??= await this.chain.client.getBlockNumber();
    await this.repo.reopenDropped(head).catch((cause) => {
      this.log(`auto-sell: sent firings were not checked at this block: ${failureWords(cause)}`);
    });
    for (const firing of await this.repo.selling(head)) await this.waves.send(firing, head);
  }

  /** Reads, records readings, decides firings; answers the block read. */
  private async evaluate(rules: ArmedRule[]): Promise<bigint> {
    const bundles = await this.pnl.bundles(rules.map((r) => r.token));
    const needs = new Map<string, Needs>();
    for (const [token] of bundles)
      needs.set(token, needsOf(rules.filter((r) => r.token === token).flatMap(triggersOf)));
    const { block, readings, failures } = await this.reader.read(bundles, needs);
    const updates = [];
    const decided = [];
    for (const rule of rules) {
      const bundle = bundles.get(rule.token);
      if (!bundle) continue;
      const reading = readings.get(rule.token);
      const failure = failures.get(rule.token);
      let memory: TriggerMemory = { peakWei: rule.peakWei, armedBlock: rule.armedBlock ?? block };
      let read: AutosellReading;
      try {
        if (!reading) throw new Error(failure ?? "the token was not read");
        memory = {
          peakWei: nextPeak({ peakWei: rule.peakWei, armedBlock: block }, reading),
          armedBlock: rule.armedBlock ?? block,
        };
        const { next, conditions, met } = this.judge(rule, reading, memory);
        read = { ...readingOf(block, conditions), ...unreadOf(rule, reading) };
        if (met && next !== null) decided.push({ rule, bundle, tier: next, reading: read });
      } catch (cause) {
        // This rule's inputs (or its judging) failed: it says why and is read again next block.
        read = { ...readingOf(block, []), error: `Not read at this block: ${failureWords(cause)}` };
      }
      // A reading that says what the last one said is not written again: its block is when the
      // input last changed (a quiet chain writes nothing each block).
      const sig = signatureOf(read);
      if (rule.armedBlock === null || memory.peakWei !== rule.peakWei || sig !== rule.readingSig)
        updates.push({
          id: rule.id,
          version: rule.version,
          reading: { ...read, sig },
          peakWei: memory.peakWei,
          armedBlock: memory.armedBlock,
        });
    }
    await this.repo.saveReadings(updates);
    for (const decision of decided) {
      try {
        await this.decide(decision, block);
      } catch (cause) {
        this.log(
          `auto-sell ${decision.rule.id}: not decided at block ${block}: ${failureWords(cause)}`,
        );
      }
    }
    return block;
  }

  /** Records a met rule's firing (AutosellPassRepository.decide) and tells its owner. */
  private async decide(
    d: { rule: ArmedRule; bundle: PnlBundle; tier: number; reading: AutosellReading },
    block: bigint,
  ): Promise<void> {
    const { rule, bundle, tier, reading } = d;
    const tiers = "tiers" in rule.action ? rule.action.tiers.length : 1;
    const percent = percentOf(rule.action, tier, rule.firedTiers);
    const wallets = sellersOf(rule.action, bundle);
    const recorded = await this.repo.decide({
      ruleId: rule.id,
      version: rule.version,
      tier,
      block,
      reading,
      percent,
      wallets,
      last: rule.firedTiers.length + 1 >= tiers,
    });
    if (!recorded) return;
    // A crash here leaves a decided firing, no sale: the next pass sends it.
    await failpoint("autosell.decided");
    const met = reading.conditions.filter((c) => c.met && (c.tier ?? tier) === tier);
    this.emit(
      rule.ownerId,
      `Auto-sell rule ${rule.id.slice(0, 8)}${tiers > 1 ? ` tier ${tier + 1}` : ""} fired at block ${block} (${met.map((c) => c.text).join("; ")}): selling ${percent}% of ${plural(wallets.length, "wallet")}`,
    );
  }

  /** The next tier to fire (a ladder's first unfired; 0 without one) and the rule's reading. */
  private judge(rule: ArmedRule, reading: TokenReading, memory: TriggerMemory) {
    if (!("tiers" in rule.action)) {
      if (!rule.trigger) return { next: null, conditions: [], met: false };
      const read = readTrigger(rule.trigger, reading, memory);
      return { next: 0, ...read };
    }
    const tiers = rule.action.tiers;
    const next = tiers.findIndex((_, i) => !rule.firedTiers.includes(i));
    const conditions = tiers.flatMap((t, i) =>
      rule.firedTiers.includes(i) ? [] : readTrigger(t.trigger, reading, memory, i).conditions,
    );
    const met =
      next >= 0 &&
      readTrigger((tiers[next] as { trigger: AutosellTrigger }).trigger, reading, memory).met;
    return { next: next >= 0 ? next : null, conditions, met };
  }

  async dryRun(ownerId: string, token: Address, spec: RuleSpec): Promise<DryRun> {
    const lower = token.toLowerCase();
    const bundles = await this.pnl.bundles([lower], ownerId);
    const bundle = bundles.get(lower);
    if (!bundle) throw bundleNotFound();
    const rule: ArmedRule = {
      id: "dry-run",
      ownerId,
      token: lower,
      ...spec,
      peakWei: null,
      armedBlock: null,
      firedTiers: [],
      readingSig: null,
      version: 0,
    };
    const { block, readings, failures } = await this.reader.read(
      bundles,
      new Map([[lower, needsOf(triggersOf(rule))]]),
    );
    const reading = readings.get(lower);
    if (!reading)
      throw new ServiceUnavailableError(
        `The token could not be read now: ${failures.get(lower) ?? "the launchpad does not know it"}`,
      );
    const memory = {
      peakWei: nextPeak({ peakWei: null, armedBlock: block }, reading),
      armedBlock: block,
    };
    const { conditions, met, next } = this.judge(rule, reading, memory);
    const percent = percentOf(spec.action, next ?? 0, []);
    const sales = await this.waves.simulate(
      lower,
      sellersOf(spec.action, bundle).map((w) => getAddress(w)),
      percent,
    );
    const total = sales.reduce((s, x) => s + x.amountOut, 0n);
    return {
      reading: { ...readingOf(block, conditions), ...unreadOf(rule, reading) },
      fires: met,
      sales: sales.map((s) => ({
        address: getAddress(s.address),
        tokens: tokenWords(s.amountIn),
        expectedBnb: formatWeiAsBnb(s.amountOut),
      })),
      expectedBnb: formatWeiAsBnb(total),
    };
  }

  async marketCapNow(token: Address): Promise<{ wei: bigint; usd: number | null }> {
    const lower = token.toLowerCase();
    const bundles = await this.pnl.bundles([lower]);
    const none: Needs = {
      exit: false,
      ledger: false,
      outside: false,
      time: false,
      windows: new Set(),
    };
    const { readings, failures } = await this.reader.read(bundles, new Map([[lower, none]]));
    const reading = readings.get(lower);
    const failure = failures.get(lower);
    // Unread, a market cap to reach cannot be checked against today's: refused for now.
    if (failure && failure !== NOT_LAUNCHPADS)
      throw new ServiceUnavailableError(`The market cap could not be read now: ${failure}`);
    if (!reading) return { wei: 0n, usd: null };
    const usd =
      reading.bnbUsd === null ? null : Number(formatEther(reading.marketCapWei)) * reading.bnbUsd;
    return { wei: reading.marketCapWei, usd };
  }
}
