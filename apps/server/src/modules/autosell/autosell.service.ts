import { isDeepStrictEqual } from "node:util";
import {
  AUTOSELL_LIMITS,
  type AutosellAction,
  type AutosellExecution,
  type AutosellFiring,
  type AutosellReading,
  type AutosellRule,
  type AutosellState,
  type AutosellTrigger,
} from "@bundler/shared";
import { getAddress } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
} from "../../lib/errors.ts";
import { refuseUntradableKind } from "../../lib/token-kind.ts";
import type { BundlesRepository } from "../bundles/bundles.repository.ts";
import { ownedBundle } from "../bundles/bundles.service.ts";
import type { AutosellRepository, RuleRow, RuleWithFirings } from "./autosell.repository.ts";
import { checkedSpec, type RuleInput } from "./autosell-checks.ts";
import type { AutosellPreview, DryRun, RuleSpec } from "./autosell-preview.ts";

export const ruleNotFound = () => new NotFoundError("Rule not found");

/**
 * A stored reading as answered: its block, conditions and why some could not be read (not the
 * pass's own signature).
 */
const readingOf = (stored: unknown): AutosellReading | null => {
  if (!stored) return null;
  const { block, conditions, error } = stored as AutosellReading;
  return { block, conditions, ...(error ? { error } : {}) };
};

/** A rule's answer: the stored row in the contract's shape (autosellRuleSchema). */
export const ruleOf = (row: RuleWithFirings): AutosellRule => ({
  id: row.id,
  address: getAddress(row.token),
  state: row.state,
  trigger: row.trigger as AutosellTrigger | null,
  action: row.action as AutosellAction,
  execution: row.execution as AutosellExecution,
  reading: readingOf(row.reading),
  firings: row.firings.map(
    (f): AutosellFiring => ({
      tier: f.tier,
      block: f.blockNumber.toString(),
      reading: readingOf(f.reading) as AutosellReading,
      state: f.state,
      transactions: f.transactions,
      error: f.error,
      at: f.decidedAt.toISOString(),
    }),
  ),
  createdAt: row.createdAt.toISOString(),
});

/**
 * What each change of state may start from, and its verb for the 409's sentence. A cancel also
 * takes a fired rule whose firing is still selling, and stops that firing.
 */
const MOVES = {
  pause: { from: ["armed"], to: "paused", only: "an armed rule" },
  resume: { from: ["paused"], to: "armed", only: "a paused rule" },
  cancel: {
    from: ["armed", "paused"],
    to: "cancelled",
    only: "an armed or paused rule, or one still selling,",
  },
} as const satisfies Record<
  string,
  { from: readonly AutosellState[]; to: AutosellState; only: string }
>;
export type RuleMove = keyof typeof MOVES;

/**
 * A ladder that has fired tiers can be edited only into a ladder that keeps those tiers as they
 * are (their percents count in what the later tiers sell) and has a tier left to fire: a rule
 * that could never fire again is refused with the reason.
 */
const checkFiredTiers = (rule: RuleRow, spec: RuleSpec, firedTiers: number[]) => {
  if (firedTiers.length === 0) return;
  const first = (firedTiers[0] as number) + 1;
  const before = rule.action as AutosellAction;
  if (!("tiers" in before) || !("tiers" in spec.action))
    throw new ConflictError(
      `Tier ${first} of this ladder has already fired: it stays a ladder whose fired tiers are kept as they are; cancel it and arm a new rule to sell another way`,
    );
  const after = spec.action.tiers;
  for (const tier of firedTiers) {
    const was = before.tiers[tier];
    const now = after[tier];
    // Stored as jsonb, whose keys come back in its own order: compared as values.
    if (!was || !now || !isDeepStrictEqual(was, now))
      throw new ConflictError(
        `Tier ${tier + 1} has already fired: it cannot be changed (keep it as tier ${tier + 1} with its trigger and percent)`,
      );
  }
  if (after.every((_, i) => firedTiers.includes(i)))
    throw new ConflictError(
      `Every tier of this ladder would have fired: add a tier after tier ${after.length}, or cancel the rule`,
    );
};

const wrongState = (state: AutosellState, only: string, verb: string) =>
  new ConflictError(`Rule is ${state}: only ${only} can be ${verb}`);

const PAST: Record<RuleMove, string> = { pause: "paused", resume: "resumed", cancel: "cancelled" };

/**
 * A user's auto-sell rules on their launched bundles: created, listed, paused, resumed,
 * cancelled and edited here; the per-block engine (autosell.engine.ts) evaluates and fires
 * them. Another user's bundle or rule is a 404; bad input a 400 that stores nothing; a rule
 * in the wrong state for the change a 409.
 */
export class AutosellService {
  constructor(
    private readonly repo: AutosellRepository,
    private readonly bundles: BundlesRepository,
    private readonly preview: AutosellPreview | undefined,
    private readonly chain: ChainContext | undefined,
  ) {}

  /** Arms a rule on the caller's bundle, within the per-bundle and per-user limits. */
  async create(ownerId: string, input: RuleInput & { address: string }): Promise<AutosellRule> {
    const bundle = await ownedBundle(this.bundles, ownerId, input.address);
    await refuseUntradableKind(
      this.chain,
      getAddress(bundle.tokenAddress),
      "sold by an auto-sell rule",
    );
    const spec = await checkedSpec(bundle, input, this.preview);
    const created = await this.repo.create(ownerId, bundle.tokenAddress, spec, AUTOSELL_LIMITS);
    if ("full" in created)
      throw new BadRequestError(
        created.full === "bundle"
          ? `This bundle already has ${AUTOSELL_LIMITS.perBundle} rules armed, paused or still selling, the most it may have: cancel one first`
          : `You already have ${AUTOSELL_LIMITS.perUser} rules armed, paused or still selling, the most an account may have: cancel one first`,
      );
    return ruleOf(created.rule);
  }

  /** The caller's rules on one of their bundles, newest first. */
  async list(ownerId: string, address: string): Promise<AutosellRule[]> {
    const bundle = await ownedBundle(this.bundles, ownerId, address);
    return (await this.repo.list(ownerId, bundle.tokenAddress)).map(ruleOf);
  }

  /**
   * Pauses, resumes or cancels the caller's rule (a cancel stops a firing still selling); 409
   * from a state the change cannot start from.
   */
  async move(ownerId: string, id: string, move: RuleMove): Promise<AutosellRule> {
    const { from, to, only } = MOVES[move];
    const moved =
      move === "cancel"
        ? await this.repo.cancel(ownerId, id)
        : await this.repo.setState(ownerId, id, from, to, { clearTracking: move === "resume" });
    if (moved) return ruleOf(moved);
    const rule = await this.repo.find(ownerId, id);
    if (!rule) throw ruleNotFound();
    throw wrongState(rule.state, only, PAST[move]);
  }

  /** A new trigger, action or execution for an armed or paused rule, checked as on create. */
  async update(ownerId: string, id: string, input: RuleInput): Promise<AutosellRule> {
    const rule = await this.repo.find(ownerId, id);
    if (!rule) throw ruleNotFound();
    if (rule.state !== "armed" && rule.state !== "paused")
      throw wrongState(rule.state, "an armed or paused rule", "edited");
    const bundle = await ownedBundle(this.bundles, ownerId, rule.token);
    const spec = await checkedSpec(bundle, input, this.preview);
    const updated = await this.repo.update(ownerId, id, spec, (current, fired) =>
      checkFiredTiers(current, spec, fired),
    );
    if (updated) return ruleOf(updated);
    // The engine fired it (or another request cancelled it) since it was read.
    const now = await this.repo.find(ownerId, id);
    if (!now) throw ruleNotFound();
    throw wrongState(now.state, "an armed or paused rule", "edited");
  }

  /** What the rule would do at the current block, checked as on create; nothing is stored. */
  async dryRun(ownerId: string, input: RuleInput & { address: string }): Promise<DryRun> {
    const bundle = await ownedBundle(this.bundles, ownerId, input.address);
    requireChain(this.chain);
    if (!this.preview) throw new ServiceUnavailableError("chain unavailable");
    const spec = await checkedSpec(bundle, input, this.preview);
    return this.preview.dryRun(ownerId, getAddress(bundle.tokenAddress), spec);
  }
}
