import type {
  AutosellCondition,
  AutosellConditionType,
  AutosellRule,
  AutosellRuleBody,
  AutosellTrigger,
} from "@bundler/shared";
import { slippageBps } from "./slippage.ts";

/** One condition as the form holds it: text fields, whatever the type needs. */
export interface ConditionDraft {
  type: AutosellConditionType;
  /** The condition's number: the cap, multiple, percent, BNB, time or minutes. */
  value: string;
  /** A market cap's unit. */
  unit: "BNB" | "USD";
  /** Outside buying within this many blocks; blank: since launch. */
  withinBlocks: string;
  /** A time condition: a moment, or minutes after launch. */
  timeMode: "at" | "after";
}

export interface TriggerDraft {
  combine: "any" | "all";
  conditions: ConditionDraft[];
}

export interface TierDraft {
  percent: string;
  trigger: TriggerDraft;
}

export interface ExecutionDraft {
  spreadBlocks: string;
  maxWalletsPerBlock: string;
  jitter: boolean;
  /** A percent, as the sell panel's slippage field; sent as basis points. */
  slippage: string;
}

/** The whole form: a trigger and a percent, or a ladder of tiers with their own triggers. */
export interface RuleDraft {
  mode: "percent" | "tiers";
  trigger: TriggerDraft;
  percent: string;
  tiers: TierDraft[];
  includeDeveloper: boolean;
  execution: ExecutionDraft;
}

/** Each condition type's name in the type select and the label of its value field. */
export const CONDITION_TYPES: Record<AutosellConditionType, { name: string; value: string }> = {
  marketCap: { name: "Market cap", value: "market cap at least" },
  priceMultiple: { name: "Price multiple", value: "times the average cost" },
  takeProfit: { name: "Take profit", value: "P&L at least (%)" },
  stopLoss: { name: "Stop loss", value: "P&L at most (%)" },
  trailing: { name: "Trailing stop", value: "drop from the high (%)" },
  outsideBuys: { name: "Sniper guard", value: "outside net buying (BNB)" },
  curveProgress: { name: "Curve progress", value: "curve progress (%)" },
  time: { name: "Time", value: "time" },
};

export const condition = (
  type: AutosellConditionType,
  value = "",
  more: Partial<ConditionDraft> = {},
): ConditionDraft => ({ type, value, unit: "BNB", withinBlocks: "", timeMode: "after", ...more });

const anyOf = (...conditions: ConditionDraft[]): TriggerDraft => ({ combine: "any", conditions });

export const DEFAULT_EXECUTION: ExecutionDraft = {
  spreadBlocks: "1",
  maxWalletsPerBlock: "50",
  jitter: false,
  slippage: "5",
};

export const emptyDraft = (): RuleDraft => ({
  mode: "percent",
  trigger: anyOf(condition("marketCap")),
  percent: "100",
  tiers: [],
  includeDeveloper: false,
  execution: { ...DEFAULT_EXECUTION },
});

/** The presets' buttons and what each puts in the form (the execution fields stay as set). */
export const RULE_PRESETS: Array<{ name: string; fill: () => Omit<RuleDraft, "execution"> }> = [
  {
    name: "Take initial out at 2x",
    fill: () => ({
      ...emptyDraft(),
      trigger: anyOf(condition("priceMultiple", "2")),
      percent: "50",
    }),
  },
  {
    name: "Sniper guard",
    fill: () => ({ ...emptyDraft(), trigger: anyOf(condition("outsideBuys", "1")) }),
  },
  {
    name: "Stop loss -50%",
    fill: () => ({ ...emptyDraft(), trigger: anyOf(condition("stopLoss", "-50")) }),
  },
  {
    name: "Ladder 2x / 3x / trailing 30%",
    fill: () => ({
      ...emptyDraft(),
      mode: "tiers",
      tiers: [
        { percent: "25", trigger: anyOf(condition("priceMultiple", "2")) },
        { percent: "25", trigger: anyOf(condition("priceMultiple", "3")) },
        { percent: "50", trigger: anyOf(condition("trailing", "30")) },
      ],
    }),
  },
];

/** A condition's label in the form and in its problems: "Condition 1", "Tier 2, condition 1". */
export const conditionLabel = (index: number, tier?: number): string =>
  tier === undefined ? `Condition ${index + 1}` : `Tier ${tier + 1}, condition ${index + 1}`;

/** A field the form cannot send, with the sentence that says why. */
export class DraftProblem extends Error {
  override readonly name = "DraftProblem" as const;
}

const numberOf = (text: string, label: string): number => {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(value))
    throw new DraftProblem(`${label} must be a number.`);
  return value;
};

const decimalOf = (text: string, label: string): string => {
  const value = text.trim();
  if (!/^\d+(\.\d+)?$/.test(value)) throw new DraftProblem(`${label} must be a number like 1.5.`);
  return value;
};

function conditionOf(draft: ConditionDraft, label: string): AutosellCondition {
  const value = `${label}'s ${CONDITION_TYPES[draft.type].value}`;
  switch (draft.type) {
    case "marketCap":
      return { type: "marketCap", atLeast: decimalOf(draft.value, value), unit: draft.unit };
    case "priceMultiple":
      return { type: "priceMultiple", atLeast: decimalOf(draft.value, value) };
    case "takeProfit":
      return { type: "takeProfit", pnlPercent: numberOf(draft.value, value) };
    case "stopLoss": {
      // "50" and "-50" both mean a loss of half: a stop loss is below zero.
      const percent = numberOf(draft.value, value);
      return { type: "stopLoss", pnlPercent: -Math.abs(percent) };
    }
    case "trailing":
      return { type: "trailing", dropPercent: numberOf(draft.value, value) };
    case "outsideBuys":
      return {
        type: "outsideBuys",
        atLeastBnb: decimalOf(draft.value, value),
        ...(draft.withinBlocks.trim() === ""
          ? {}
          : { withinBlocks: numberOf(draft.withinBlocks, `${label}'s blocks`) }),
      };
    case "curveProgress":
      return { type: "curveProgress", atLeastPercent: numberOf(draft.value, value) };
    case "time": {
      if (draft.timeMode === "after")
        return { type: "time", afterMinutes: numberOf(draft.value, `${label}'s minutes`) };
      const at = new Date(draft.value);
      if (draft.value.trim() === "" || Number.isNaN(at.getTime()))
        throw new DraftProblem(`${label}'s time must be a date and time.`);
      return { type: "time", at: at.toISOString() };
    }
  }
}

/** `draft` as the contract's trigger; `name(i)` is the i-th condition's label ("Condition 1"). */
function triggerOf(draft: TriggerDraft, name: (index: number) => string): AutosellTrigger {
  const conditions = draft.conditions.map((c, i) => conditionOf(c, name(i)));
  return draft.combine === "any" ? { any: conditions } : { all: conditions };
}

/**
 * What the form sends: the create and dry-run routes' body, or a DraftProblem naming the
 * field that is not a number. The server checks the rest (ranges, a ladder over 100%).
 *
 * @example
 * ruleBody(address, sniperGuardAt1Bnb).trigger; // { any: [{ type: "outsideBuys", atLeastBnb: "1" }] }
 */
export function ruleBody(address: string, draft: RuleDraft): AutosellRuleBody {
  const slippage = slippageBps(draft.execution.slippage);
  if (slippage === null)
    throw new DraftProblem("Slippage must be a percent from 0.1 to 50, like 5 or 2.5.");
  const execution = {
    spreadBlocks: numberOf(draft.execution.spreadBlocks, "Spread over blocks"),
    maxWalletsPerBlock: numberOf(draft.execution.maxWalletsPerBlock, "Wallets per block"),
    jitter: draft.execution.jitter,
    slippageBps: slippage,
  };
  const includeDeveloper = draft.includeDeveloper;
  if (draft.mode === "tiers") {
    if (draft.tiers.length === 0) throw new DraftProblem("A ladder needs at least one tier.");
    const tiers = draft.tiers.map((tier, i) => ({
      percent: numberOf(tier.percent, `Tier ${i + 1}'s percent`),
      trigger: triggerOf(tier.trigger, (c) => conditionLabel(c, i)),
    }));
    return { address, action: { tiers, includeDeveloper }, execution };
  }
  return {
    address,
    trigger: triggerOf(draft.trigger, (c) => conditionLabel(c)),
    action: { percent: numberOf(draft.percent, "Percent to sell"), includeDeveloper },
    execution,
  };
}

/** A moment as a datetime-local field's text, in the browser's time zone. */
const localTime = (iso: string): string => {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

function conditionDraft(c: AutosellCondition): ConditionDraft {
  switch (c.type) {
    case "marketCap":
      return condition(c.type, c.atLeast, { unit: c.unit ?? "BNB" });
    case "priceMultiple":
      return condition(c.type, c.atLeast);
    case "takeProfit":
    case "stopLoss":
      return condition(c.type, String(c.pnlPercent));
    case "trailing":
      return condition(c.type, String(c.dropPercent));
    case "outsideBuys":
      return condition(c.type, c.atLeastBnb, { withinBlocks: String(c.withinBlocks ?? "") });
    case "curveProgress":
      return condition(c.type, String(c.atLeastPercent));
    case "time":
      return c.at !== undefined
        ? condition(c.type, localTime(c.at), { timeMode: "at" })
        : condition(c.type, String(c.afterMinutes ?? ""));
  }
}

const triggerDraft = (trigger: AutosellTrigger): TriggerDraft =>
  "any" in trigger
    ? { combine: "any", conditions: trigger.any.map(conditionDraft) }
    : { combine: "all", conditions: trigger.all.map(conditionDraft) };

/** A stored rule back in the form, to edit it (only while armed or paused). */
export function draftFromRule(
  rule: Pick<AutosellRule, "trigger" | "action" | "execution">,
): RuleDraft {
  const { action, execution } = rule;
  const base = emptyDraft();
  return {
    ...base,
    ...("tiers" in action
      ? {
          mode: "tiers" as const,
          tiers: action.tiers.map((tier) => ({
            percent: String(tier.percent),
            trigger: triggerDraft(tier.trigger),
          })),
        }
      : { mode: "percent" as const, percent: String(action.percent) }),
    trigger: rule.trigger ? triggerDraft(rule.trigger) : base.trigger,
    includeDeveloper: action.includeDeveloper ?? false,
    execution: {
      spreadBlocks: String(execution.spreadBlocks ?? 1),
      maxWalletsPerBlock: String(execution.maxWalletsPerBlock ?? 50),
      jitter: execution.jitter ?? false,
      slippage: String((execution.slippageBps ?? 500) / 100),
    },
  };
}
