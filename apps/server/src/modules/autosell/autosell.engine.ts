import { createHash } from "node:crypto";
import { prepareSells } from "@bundler/chain";
import {
  type AutosellAction,
  type AutosellReading,
  type AutosellTrigger,
  formatWeiAsBnb,
  tokenWords,
} from "@bundler/shared";
import { type Address, formatEther, getAddress } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { failpoint } from "../../lib/failpoints.ts";
import { tokenHoldings } from "../../lib/shared-reads.ts";
import type { BundleSells } from "../bundles/bundle-sells.ts";
import { bundleNotFound } from "../bundles/bundles.service.ts";
import type { PnlBundle, PnlRepository } from "../pnl/pnl.repository.ts";
import type {
  ArmedRule,
  AutosellPassRepository,
  SellingFiring,
} from "./autosell-pass.repository.ts";
import type { AutosellPreview, DryRun, RuleSpec } from "./autosell-preview.ts";
import type { AutosellReader, Needs } from "./autosell-readings.ts";
import {
  needsOf,
  nextPeak,
  readingOf,
  readTrigger,
  type TokenReading,
  type TriggerMemory,
} from "./autosell-triggers.ts";

const WHOLE = 10n ** 18n;

/** What a reading says, whatever its block: a short hash of its conditions' words. */
const signatureOf = (reading: AutosellReading) =>
  createHash("sha256")
    .update(reading.conditions.map((c) => `${c.tier ?? ""}|${c.met}|${c.text}`).join("\n"))
    .digest("base64url")
    .slice(0, 22);

/** A rule's triggers: its own, or its ladder's tiers'. */
const triggersOf = (rule: { trigger: AutosellTrigger | null; action: AutosellAction }) =>
  "tiers" in rule.action
    ? rule.action.tiers.map((t) => t.trigger)
    : rule.trigger
      ? [rule.trigger]
      : [];

/**
 * The percent of each wallet's holdings now that tier `tier` sells: a ladder's tier sells its
 * share of the holdings the rule started with, over what the tiers before it left.
 */
export const percentOf = (action: AutosellAction, tier: number, firedTiers: number[]): string => {
  if (!("tiers" in action)) return String(action.percent);
  const before = action.tiers
    .filter((_, i) => firedTiers.includes(i))
    .reduce((s, t) => s + t.percent, 0);
  const left = 100 - before;
  const share = (action.tiers[tier]?.percent ?? 0) / (left > 0 ? left : 1);
  return share >= 1 ? "100" : (share * 100).toFixed(12).replace(/\.?0+$/, "");
};

/** Who a firing sells from, in landing order: the chosen bundle wallets, then the developer. */
export const sellersOf = (action: AutosellAction, bundle: PnlBundle): string[] => {
  const chosen = action.wallets?.map((w) => w.toLowerCase());
  const wallets = bundle.wallets.filter(
    (w) => w !== bundle.deployer && (!chosen || chosen.includes(w)),
  );
  return action.includeDeveloper && bundle.deployer ? [...wallets, bundle.deployer] : wallets;
};

/** How many wallets a wave sells: `spreadBlocks` waves at most `maxWalletsPerBlock` each. */
const waveSize = (firing: Pick<SellingFiring, "wallets" | "execution">) =>
  Math.max(
    1,
    Math.min(
      firing.execution.maxWalletsPerBlock,
      Math.ceil(firing.wallets.length / firing.execution.spreadBlocks),
    ),
  );

/**
 * Auto-sell's per-block pass (autosell.jobs.ts): reads every armed rule's inputs for the block
 * in a fixed number of requests (AutosellReader), keeps each rule's reading and trailing high,
 * records a firing under the rule's row lock before anything is signed (once per rule and
 * tier, whichever process gets there), then sells through the exit path: `BundleSells`, as
 * private bundles with a floor, keyed by (rule, tier, wave, wallet), so a wave sent again
 * after a crash answers what was recorded instead of selling twice.
 */
export class AutosellEngine implements AutosellPreview {
  constructor(
    private readonly repo: AutosellPassRepository,
    private readonly pnl: PnlRepository,
    private readonly reader: AutosellReader,
    private readonly chain: ChainContext,
    private readonly sells: BundleSells,
    private readonly emit: (userId: string, message: string) => void,
    private readonly log: (message: string) => void,
    private readonly random: () => number = Math.random,
  ) {}

  /** One block's work: evaluate, decide, then send every wave that is due. */
  async pass(): Promise<void> {
    const rules = await this.repo.armed();
    let head: bigint | null = null;
    if (rules.length > 0) head = await this.evaluate(rules);
    head ??= await this.chain.client.getBlockNumber();
    for (const firing of await this.repo.selling(head)) await this.wave(firing, head);
  }

  /** Reads, records readings, decides firings; answers the block read. */
  private async evaluate(rules: ArmedRule[]): Promise<bigint> {
    const bundles = await this.pnl.bundles(rules.map((r) => r.token));
    const needs = new Map<string, Needs>();
    for (const [token] of bundles)
      needs.set(token, needsOf(rules.filter((r) => r.token === token).flatMap(triggersOf)));
    const { block, readings } = await this.reader.read(bundles, needs);
    const updates = [];
    const decided = [];
    for (const rule of rules) {
      const reading = readings.get(rule.token);
      const bundle = bundles.get(rule.token);
      if (!reading || !bundle) continue;
      const memory: TriggerMemory = {
        peakWei: nextPeak({ peakWei: rule.peakWei, armedBlock: block }, reading),
        armedBlock: rule.armedBlock ?? block,
      };
      const { next, conditions, met } = this.judge(rule, reading, memory);
      const read = readingOf(block, conditions);
      // A reading that says what the last one said is not written again: its block is when the
      // input last changed (a quiet chain writes nothing each block).
      const sig = signatureOf(read);
      if (rule.armedBlock === null || memory.peakWei !== rule.peakWei || sig !== rule.readingSig)
        updates.push({
          id: rule.id,
          reading: { ...read, sig },
          peakWei: memory.peakWei,
          armedBlock: memory.armedBlock,
        });
      if (met && next !== null) decided.push({ rule, bundle, tier: next, reading: read });
    }
    await this.repo.saveReadings(updates);
    for (const { rule, bundle, tier, reading } of decided) {
      const tiers = "tiers" in rule.action ? rule.action.tiers.length : 1;
      const recorded = await this.repo.decide({
        ruleId: rule.id,
        tier,
        block,
        reading,
        percent: percentOf(rule.action, tier, rule.firedTiers),
        wallets: sellersOf(rule.action, bundle),
        last: rule.firedTiers.length + 1 >= tiers,
      });
      if (!recorded) continue;
      // A crash here leaves a decided firing, no sale: the next pass sends it.
      await failpoint("autosell.decided");
      const met = reading.conditions.filter((c) => c.met && (c.tier ?? tier) === tier);
      this.emit(
        rule.ownerId,
        `Auto-sell rule ${rule.id.slice(0, 8)}${tiers > 1 ? ` tier ${tier + 1}` : ""} fired at block ${block} (${met.map((c) => c.text).join("; ")}): selling ${percentOf(rule.action, tier, rule.firedTiers)}% of ${sellersOf(rule.action, bundle).length} wallets`,
      );
    }
    return block;
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

  /** Sends a firing's next wave (unless its price impact is over the rule's limit). */
  private async wave(firing: SellingFiring, head: bigint): Promise<void> {
    const bundle = (await this.pnl.bundle(firing.token)) as PnlBundle;
    const size = waveSize(firing);
    const wallets = firing.wallets
      .slice(firing.wavesSent * size, (firing.wavesSent + 1) * size)
      .map((w) => getAddress(w));
    const last = (firing.wavesSent + 1) * size >= firing.wallets.length;
    const limit = firing.execution.maxImpactPercent;
    if (limit !== undefined && wallets.length > 0) {
      const impact = await this.impact(firing.token, wallets, firing.percent);
      if (impact !== null && impact > limit) {
        await this.repo.waveDone(firing, {
          wavesSent: firing.wavesSent,
          nextBlock: head + 1n,
          transactions: firing.transactions,
          state: "selling",
          error: `block ${head} skipped: the sales' price impact ${impact.toFixed(2)}% is over the limit of ${limit}%`,
        });
        return;
      }
    }
    let transactions = firing.transactions;
    let error: string | null = null;
    if (wallets.length > 0) {
      // A crash from here on is finished by the next pass: the same keys answer what was recorded.
      await failpoint("autosell.wave");
      let outcomes: Awaited<ReturnType<BundleSells["sellAll"]>>["outcomes"];
      try {
        ({ outcomes } = await this.sells.sellAll(
          firing.ownerId,
          { tokenAddress: firing.token, ticker: bundle.ticker ?? "", draftId: bundle.draftId },
          wallets,
          ["bundle", "deployer"],
          {
            amount: firing.percent,
            isPercentage: true,
            route: "bundle",
            slippageBps: firing.execution.slippageBps,
          },
          `autosell:${firing.ruleId}:${firing.tier}:${firing.wavesSent}`,
        ));
      } catch (cause) {
        // The chain or the database failed: the wave stays due, and goes again next block.
        const reason = cause instanceof Error ? cause.message : String(cause);
        this.log(`auto-sell ${firing.ruleId} tier ${firing.tier}: ${reason}`);
        await this.repo.waveDone(firing, {
          wavesSent: firing.wavesSent,
          nextBlock: head + 1n,
          transactions,
          state: "selling",
          error: `block ${head}: ${reason}; trying again next block`,
        });
        return;
      }
      const txs = outcomes.flatMap((o) => o.transactions);
      transactions = [
        ...new Set([...transactions, ...txs.flatMap((t) => (t.hash ? [t.hash] : []))]),
      ];
      // A wallet another sale holds (another rule's wave of the same block, a sale of the
      // user's) got nothing recorded: the wave goes again next block under the same key, which
      // answers the wallets that did sell and sells the rest once theirs has landed.
      const held = outcomes.filter((o) => o.held);
      if (held.length > 0) {
        await this.repo.waveDone(firing, {
          wavesSent: firing.wavesSent,
          nextBlock: head + 1n,
          transactions,
          state: "selling",
          error: `block ${head}: ${held.length} of ${wallets.length} wallets had another sale in flight; trying again next block`,
        });
        return;
      }
      const failed = txs.filter((t) => t.status === "failed");
      if (failed.length > 0)
        error = failed
          .slice(0, 3)
          .map((t) => t.error)
          .join("; ")
          .concat(failed.length > 3 ? ` (and ${failed.length - 3} more)` : "");
    }
    const jitter = firing.execution.jitter ? BigInt(Math.floor(this.random() * 3)) : 0n;
    await this.repo.waveDone(firing, {
      wavesSent: firing.wavesSent + 1,
      nextBlock: head + 1n + jitter,
      transactions,
      state: last ? (transactions.length > 0 ? "sent" : "failed") : "selling",
      error,
    });
    if (last)
      this.emit(
        firing.ownerId,
        transactions.length > 0
          ? `Auto-sell rule ${firing.ruleId.slice(0, 8)}: ${transactions.length} transactions sent${error ? `; ${error}` : ""}`
          : `Auto-sell rule ${firing.ruleId.slice(0, 8)} sold nothing: ${error ?? "no wallet had tokens"}`,
      );
  }

  /** The wave's price impact, percent: its simulated proceeds against price × tokens sold. */
  private async impact(token: string, wallets: Address[], percent: string): Promise<number | null> {
    const sales = await this.simulate(token, wallets, percent);
    const marked = sales.reduce((s, x) => s + (x.amountIn * x.price) / WHOLE, 0n);
    const fetched = sales.reduce((s, x) => s + x.amountOut, 0n);
    if (marked === 0n) return null;
    return Number(((marked - fetched) * 10_000n) / marked) / 100;
  }

  /** What selling `percent` of each wallet's tokens fetches now: one simulation in landing order. */
  private async simulate(token: string, wallets: Address[], percent: string) {
    const { chain } = this;
    if (!chain.launchpad || !chain.trade) return [];
    const read = await tokenHoldings(chain, {
      token: getAddress(token),
      addresses: wallets,
      helper: chain.trade.helper,
      spenders: [chain.launchpad, chain.trade.router],
    });
    const scaled = BigInt(Math.round(Number(percent) * 1e6));
    const sellers = read.holdings
      .map((h) => ({ address: h.address as Address, amount: (h.token * scaled) / 100_000_000n }))
      .filter((s) => s.amount > 0n);
    if (sellers.length === 0) return [];
    const prepared = await prepareSells(chain.client, {
      launchpad: chain.launchpad,
      ...chain.trade,
      token: getAddress(token),
      sellers,
      gasPrice: 0n,
      holdings: read,
    });
    const price = read.info?.lastPrice ?? 0n;
    return prepared.sells.flatMap((s) =>
      "quote" in s
        ? [{ address: s.address, amountIn: s.quote.amountIn, amountOut: s.quote.amountOut, price }]
        : [],
    );
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
    };
    const { block, readings } = await this.reader.read(
      bundles,
      new Map([[lower, needsOf(triggersOf(rule))]]),
    );
    const reading = readings.get(lower);
    if (!reading) throw new Error(`token ${token} is not one of the launchpad's`);
    const memory = {
      peakWei: nextPeak({ peakWei: null, armedBlock: block }, reading),
      armedBlock: block,
    };
    const { conditions, met, next } = this.judge(rule, reading, memory);
    const percent = percentOf(spec.action, next ?? 0, []);
    const sales = await this.simulate(
      lower,
      sellersOf(spec.action, bundle).map((w) => getAddress(w)),
      percent,
    );
    const total = sales.reduce((s, x) => s + x.amountOut, 0n);
    return {
      reading: readingOf(block, conditions) as AutosellReading,
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
    const { readings } = await this.reader.read(bundles, new Map([[lower, none]]));
    const reading = readings.get(lower);
    if (!reading) return { wei: 0n, usd: null };
    const usd =
      reading.bnbUsd === null ? null : Number(formatEther(reading.marketCapWei)) * reading.bnbUsd;
    return { wei: reading.marketCapWei, usd };
  }
}
