import { z } from "zod";
import { SELL_SLIPPAGE_BPS } from "./bundles.ts";
import { defineRoute } from "./common.ts";
import { describeIssue, type FieldLabels, labelFor, labelled } from "./field-labels.ts";
import { addressSchema } from "./money.ts";

/**
 * How many rules may be armed, paused or still selling (a firing whose waves are not all sent)
 * at once: per bundle and per user.
 */
export const AUTOSELL_LIMITS = { perBundle: 20, perUser: 200, conditions: 10, tiers: 10 } as const;

/** A percent to sell has at most this many decimals (12.25% is 1225 basis points). */
export const AUTOSELL_PERCENT_DECIMALS = 2;

/**
 * How many times a firing's wave may fail (a chain or database failure, a sale that cannot be
 * made; tried a block apart) before the firing is given up as failed, with the last reason.
 * Waiting for wallets another sale holds, or for the price impact to fall under the rule's
 * limit, is not a failure.
 */
export const AUTOSELL_WAVE_ATTEMPTS = 10;

/**
 * A percent to sell in basis points, exactly: the schemas let through only percents with at
 * most 2 decimals, which a double holds as the nearest value to that decimal, so the rounding
 * is exact.
 *
 * @example
 * percentBps(12.25); // 1225n
 */
export const percentBps = (percent: number): bigint => BigInt(Math.round(percent * 100));

/** A positive decimal amount (BNB, USD or a multiple), as a string. */
const positiveDecimal = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,18})?$/, "must be a number like 1.5")
  .refine((v) => Number(v) > 0, "must be more than 0");

/** One thing a rule watches, read every block from what the chain says at that block. */
export const autosellConditionSchema = z.discriminatedUnion("type", [
  /** The launchpad's price × the token's supply, in BNB or (at the app's BNB price) USD. */
  z.object({
    type: z.literal("marketCap"),
    atLeast: positiveDecimal,
    unit: z.enum(["BNB", "USD"]).default("BNB"),
  }),
  /** The price at or above this many times the bundle's average cost per token (P&L ledger). */
  z.object({ type: z.literal("priceMultiple"), atLeast: positiveDecimal }),
  /** Unrealized P&L on exit value at or above this percent of the held tokens' cost. */
  z.object({
    type: z.literal("takeProfit"),
    pnlPercent: z.number().gt(0, "must be more than 0").max(100_000, "must be at most 100000"),
  }),
  /** Unrealized P&L on exit value at or below this (negative) percent. */
  z.object({
    type: z.literal("stopLoss"),
    pnlPercent: z.number().lt(0, "must be below 0").min(-100, "must be at least -100"),
  }),
  /**
   * Exit value per token held down this percent from its highest since the rule was armed
   * (per token, so the rule's own sales do not count as a drop).
   */
  z.object({
    type: z.literal("trailing"),
    dropPercent: z.number().gt(0, "must be more than 0").max(100, "must be at most 100"),
  }),
  /**
   * Net BNB bought by wallets that are not the bundle's (buys less sales, the launchpad's
   * events), since launch or within the last `withinBlocks` blocks.
   */
  z.object({
    type: z.literal("outsideBuys"),
    atLeastBnb: positiveDecimal,
    withinBlocks: z.number().int().min(1).max(100_000).optional(),
  }),
  /** The curve's funds as a percent of what graduates it (100: graduated). */
  z.object({
    type: z.literal("curveProgress"),
    atLeastPercent: z.number().gt(0, "must be more than 0").max(100, "must be at most 100"),
  }),
  /** At a moment (ISO time) or this many minutes after the launch. */
  z.object({
    type: z.literal("time"),
    at: z
      .string()
      .datetime({ offset: true, message: "must be a time like 2026-12-01T12:00:00Z" })
      .optional(),
    afterMinutes: z.number().gt(0, "must be more than 0").max(525_600).optional(),
  }),
]);
export type AutosellCondition = z.infer<typeof autosellConditionSchema>;
export type AutosellConditionType = AutosellCondition["type"];

const conditions = z
  .array(autosellConditionSchema)
  .min(1, "needs at least one condition")
  .max(AUTOSELL_LIMITS.conditions, `has at most ${AUTOSELL_LIMITS.conditions} conditions`);

/** A trigger's conditions as a sentence names them, relative to the trigger. */
const conditionLabels = {
  "": "Trigger",
  "#": "Condition {row}",
  "#.type": "Condition {row}'s kind",
  "#.atLeast": "Condition {row}'s value",
  "#.unit": "Condition {row}'s unit",
  "#.pnlPercent": "Condition {row}'s percent",
  "#.dropPercent": "Condition {row}'s drop",
  "#.atLeastBnb": "Condition {row}'s BNB",
  "#.withinBlocks": "Condition {row}'s blocks",
  "#.atLeastPercent": "Condition {row}'s percent",
  "#.at": "Condition {row}'s time",
  "#.afterMinutes": "Condition {row}'s minutes",
};
const triggerLabels: FieldLabels = Object.fromEntries(
  ["any", "all"].flatMap((key) =>
    Object.entries(conditionLabels).map(([path, label]) => [path ? `${key}.${path}` : key, label]),
  ),
);

type UnionIssue = { code: string; input?: unknown; errors?: z.core.$ZodIssue[][] };

/**
 * A union's error in words instead of zod's "Invalid input": the first problem of the form the
 * value chose (the branch whose key it has), with the labels of that form's fields; `fallback`
 * (said after the field's label) when it chose none or its choice is not the problem.
 */
const unionProblem =
  (branchOf: (keys: string[]) => number | undefined, labels: FieldLabels, fallback: string) =>
  (issue: UnionIssue): string | undefined => {
    if (issue.code !== "invalid_union") return undefined;
    const { input } = issue;
    const keys = input !== null && typeof input === "object" ? Object.keys(input) : [];
    const branch = branchOf(keys);
    const first = branch === undefined ? undefined : issue.errors?.[branch]?.[0];
    if (!first || first.path.length === 0) return fallback;
    const { error } = describeIssue(first, labels);
    // A trigger inside (a ladder tier's) said its own problem: say whose trigger it is.
    if (first.code === "invalid_union" && /^[A-Z]/.test(first.message))
      return `${labelFor(first.path, labels).label}: ${error}`;
    return error;
  };

/** Conditions combined: any of them, or all of them. */
export const autosellTriggerSchema = z.union(
  [z.object({ any: conditions }).strict(), z.object({ all: conditions }).strict()],
  {
    error: unionProblem(
      (keys) => {
        const picked = keys.filter((k) => k === "any" || k === "all");
        return picked.length === 1 ? (picked[0] === "any" ? 0 : 1) : undefined;
      },
      triggerLabels,
      'needs its conditions under "any" (one of them met) or "all" (every one met)',
    ),
  },
);
export type AutosellTrigger = z.infer<typeof autosellTriggerSchema>;

/** An action's fields as a sentence names them, relative to the action. */
const actionLabels: FieldLabels = {
  percent: "Percent to sell",
  tiers: "Ladder",
  "tiers.#": "Tier {row}",
  "tiers.#.percent": "Tier {row}'s percent",
  "tiers.#.trigger": "Tier {row}'s trigger",
  wallets: "Wallets",
  "wallets.#": "Wallet {row}",
  includeDeveloper: "Developer wallet",
};

/** A percent as the shortest decimal that reads back as it, with at most 2 decimals. */
const PERCENT_TEXT = new RegExp(`^\\d+(\\.\\d{1,${AUTOSELL_PERCENT_DECIMALS}})?$`);

const percentSchema = z
  .number()
  .gt(0, "must be more than 0")
  .max(100, "must be at most 100")
  // String(v) is that shortest decimal: "1e-7" for 0.0000001 and "12.345" are refused.
  .refine(
    (v) => PERCENT_TEXT.test(String(v)),
    `must have at most ${AUTOSELL_PERCENT_DECIMALS} decimals, like 12.5`,
  );

const whoSells = {
  /** The bundle wallets that sell (default: every one of them). */
  wallets: z.array(addressSchema).min(1).max(100).optional(),
  /** The developer (deployer) wallet sells too. */
  includeDeveloper: z.boolean().default(false),
};

/**
 * What a rule sells: a percent of each chosen wallet's holdings when its trigger fires, or a
 * ladder of tiers, each with its own trigger and a percent of the holdings the rule started
 * with, each firing at most once and in order (a tier sells its percent over what the tiers
 * before it left: 25, 25 and 50 sell a quarter, a third of the rest, then all that is left).
 */
export const autosellActionSchema = z.union(
  [
    z.object({ percent: percentSchema, ...whoSells }).strict(),
    z
      .object({
        tiers: z
          .array(z.object({ trigger: autosellTriggerSchema, percent: percentSchema }))
          .min(1, "needs at least one tier")
          .max(AUTOSELL_LIMITS.tiers, `has at most ${AUTOSELL_LIMITS.tiers} tiers`),
        ...whoSells,
      })
      .strict()
      .refine(
        (a) => a.tiers.reduce((sum, t) => sum + percentBps(t.percent), 0n) <= 10_000n,
        "Ladder tiers add up to more than 100%",
      ),
  ],
  {
    error: unionProblem(
      (keys) => (keys.includes("tiers") ? 1 : keys.includes("percent") ? 0 : undefined),
      actionLabels,
      "needs a percent to sell, or a ladder of tiers",
    ),
  },
);
export type AutosellAction = z.infer<typeof autosellActionSchema>;

/** How a firing's sales go out: in one bundle, or spread over blocks; each with a floor. */
export const autosellExecutionSchema = z
  .object({
    spreadBlocks: z.number().int().min(1).max(100).default(1),
    maxWalletsPerBlock: z.number().int().min(1).max(100).default(50),
    /** Spread waves a random 0-2 blocks apart instead of one a block. */
    jitter: z.boolean().default(false),
    slippageBps: z
      .number()
      .int()
      .min(SELL_SLIPPAGE_BPS.min, "must be at least 10 basis points (0.1%)")
      .max(SELL_SLIPPAGE_BPS.max, "must be at most 5000 basis points (50%)")
      .default(SELL_SLIPPAGE_BPS.default),
    /** Skip a block whose simulated price impact of the wave is over this percent. */
    maxImpactPercent: z.number().gt(0).max(100).optional(),
  })
  .strict();
export type AutosellExecution = z.infer<typeof autosellExecutionSchema>;

export const AUTOSELL_STATES = ["armed", "paused", "fired", "cancelled"] as const;
export type AutosellState = (typeof AUTOSELL_STATES)[number];

export const AUTOSELL_FIRING_STATES = ["selling", "sent", "failed", "stopped"] as const;
export type AutosellFiringState = (typeof AUTOSELL_FIRING_STATES)[number];

/** One condition's input at a block, in words ("market cap 41.2 BNB of 60"). */
export const autosellReadingSchema = z.object({
  block: z.string(),
  conditions: z.array(
    z.object({
      type: z.string(),
      text: z.string(),
      met: z.boolean(),
      tier: z.number().int().optional(),
    }),
  ),
  /**
   * Why some of the rule's inputs could not be read at this block (a node that refused a read,
   * a failed simulation); the conditions that need them are not met meanwhile.
   */
  error: z.string().optional(),
});
export type AutosellReading = z.infer<typeof autosellReadingSchema>;

export const autosellFiringSchema = z.object({
  /** The ladder tier (counted from 0); 0 for a rule without tiers. */
  tier: z.number().int(),
  /** The block whose state met the trigger. */
  block: z.string(),
  reading: autosellReadingSchema,
  /**
   * "selling" until every wave is sent, then "sent"; "failed" with why (a wallet that sold
   * nothing, or a wave given up after AUTOSELL_WAVE_ATTEMPTS tries); "stopped" when the rule
   * was cancelled while it was selling (what was sent stands).
   */
  state: z.enum(AUTOSELL_FIRING_STATES),
  transactions: z.array(z.string()),
  error: z.string().nullable(),
  at: z.string(),
});
export type AutosellFiring = z.infer<typeof autosellFiringSchema>;

export const autosellRuleSchema = z.object({
  id: z.string(),
  address: addressSchema,
  state: z.enum(AUTOSELL_STATES),
  trigger: autosellTriggerSchema.nullable(),
  action: autosellActionSchema,
  execution: autosellExecutionSchema,
  /** Each condition's input as the pass reads it every block; `block` is where it last changed (null until the first pass after arming). */
  reading: autosellReadingSchema.nullable(),
  firings: z.array(autosellFiringSchema),
  createdAt: z.string(),
});
export type AutosellRule = z.infer<typeof autosellRuleSchema>;

const ruleLabels = {
  address: "Token address",
  trigger: "Trigger",
  "trigger.any": "Trigger",
  "trigger.all": "Trigger",
  "trigger.any.#": "Condition {row}",
  "trigger.all.#": "Condition {row}",
  "trigger.any.#.atLeast": "Condition {row}'s value",
  "trigger.all.#.atLeast": "Condition {row}'s value",
  "trigger.any.#.pnlPercent": "Condition {row}'s percent",
  "trigger.all.#.pnlPercent": "Condition {row}'s percent",
  "trigger.any.#.dropPercent": "Condition {row}'s drop",
  "trigger.all.#.dropPercent": "Condition {row}'s drop",
  "trigger.any.#.atLeastBnb": "Condition {row}'s BNB",
  "trigger.all.#.atLeastBnb": "Condition {row}'s BNB",
  "trigger.any.#.atLeastPercent": "Condition {row}'s percent",
  "trigger.all.#.atLeastPercent": "Condition {row}'s percent",
  "action.percent": "Percent to sell",
  "action.tiers": "Ladder",
  "action.tiers.#.percent": "Tier {row}'s percent",
  "action.tiers.#.trigger": "Tier {row}'s trigger",
  "action.wallets.#": "Wallet {row}",
  "execution.spreadBlocks": "Spread over blocks",
  "execution.maxWalletsPerBlock": "Wallets per block",
  "execution.slippageBps": "Slippage",
  "execution.maxImpactPercent": "Price impact limit",
};

const ruleBody = z.object({
  address: addressSchema,
  /** Required unless the action is a ladder (each tier has its own). */
  trigger: autosellTriggerSchema.optional(),
  action: autosellActionSchema,
  execution: autosellExecutionSchema.prefault({}),
});
export type AutosellRuleBody = z.input<typeof ruleBody>;

const ruleAnswer = z.object({ success: z.literal(true), rule: autosellRuleSchema });

/** `POST /bundle/rules`: arms a rule on one of the caller's launched bundles. */
export const createRuleRoute = defineRoute({
  method: "POST",
  path: "/api/bundle/rules",
  access: "user",
  movesMoney: true,
  owned: [{ in: "body", field: "address", object: "bundle" }],
  body: labelled(ruleBody, ruleLabels),
  response: ruleAnswer,
});

/** `GET /bundle/rules?address=`: a bundle's rules, newest first, with readings and firings. */
export const listRulesRoute = defineRoute({
  method: "GET",
  path: "/api/bundle/rules",
  access: "user",
  query: labelled(z.object({ address: addressSchema }), { address: "Token address" }),
  owned: [{ in: "query", field: "address", object: "bundle" }],
  body: undefined,
  response: z.object({ success: z.literal(true), rules: z.array(autosellRuleSchema) }),
});

const ruleIdParams = z.object({ id: z.string().uuid("Rule not found") });
const ruleAction = (verb: "pause" | "resume" | "cancel") =>
  defineRoute({
    method: "POST",
    path: `/api/bundle/rules/:id/${verb}`,
    access: "user",
    // Resumed, a rule sells again when its trigger holds.
    ...(verb === "resume" ? { movesMoney: true as const } : {}),
    params: ruleIdParams,
    owned: [{ in: "params", field: "id", object: "rule" }],
    body: undefined,
    response: ruleAnswer,
  });
/** `POST /bundle/rules/:id/pause`: an armed rule stops being evaluated until resumed (409 otherwise). */
export const pauseRuleRoute = ruleAction("pause");
/** `POST /bundle/rules/:id/resume`: a paused rule armed again; a trailing stop's high starts afresh. */
export const resumeRuleRoute = ruleAction("resume");
/**
 * `POST /bundle/rules/:id/cancel`: an armed or paused rule never fires; a firing still selling
 * stops (no further waves; what was sent stands). 409 for a rule with nothing left to stop.
 */
export const cancelRuleRoute = ruleAction("cancel");

/**
 * `PUT /bundle/rules/:id`: a new trigger, action or execution, while armed or paused. A ladder
 * with fired tiers stays a ladder, keeps those tiers as they are and has a tier left to fire
 * (409 otherwise).
 */
export const updateRuleRoute = defineRoute({
  method: "PUT",
  path: "/api/bundle/rules/:id",
  access: "user",
  movesMoney: true,
  params: ruleIdParams,
  owned: [{ in: "params", field: "id", object: "rule" }],
  body: labelled(ruleBody.omit({ address: true }), ruleLabels),
  response: ruleAnswer,
});

/** One wallet's sale a dry run says a firing would make now. */
export const autosellDrySaleSchema = z.object({
  address: addressSchema,
  /** Tokens it would sell (4 decimals) and BNB it would fetch (the exit simulation). */
  tokens: z.string(),
  expectedBnb: z.string(),
});

/**
 * `POST /bundle/rules/dry-run`: what a rule would do at the current block, stored nowhere:
 * each condition's reading, whether (which tiers) it would fire, and what the sales would
 * fetch in the exit simulation.
 */
export const dryRunRuleRoute = defineRoute({
  method: "POST",
  path: "/api/bundle/rules/dry-run",
  access: "user",
  reads: true,
  owned: [{ in: "body", field: "address", object: "bundle" }],
  body: labelled(ruleBody, ruleLabels),
  response: z.object({
    success: z.literal(true),
    reading: autosellReadingSchema,
    /** Whether the rule's trigger (or, for a ladder, its first tier's) is met now. */
    fires: z.boolean(),
    sales: z.array(autosellDrySaleSchema),
    /** BNB the sales would fetch together. */
    expectedBnb: z.string(),
  }),
});
