import {
  type AutosellAction,
  type AutosellCondition,
  type AutosellRule,
  type AutosellTrigger,
  plural,
} from "@bundler/shared";
import { formatDateTime } from "../../../lib/format-date.ts";

/**
 * A condition in words, as the rules list and the fired toast say it.
 *
 * @example
 * conditionWords({ type: "outsideBuys", atLeastBnb: "1" }); // "outside buyers' net buying reaches 1 BNB since launch"
 */
export function conditionWords(condition: AutosellCondition): string {
  switch (condition.type) {
    case "marketCap":
      return `market cap reaches ${condition.atLeast} ${condition.unit ?? "BNB"}`;
    case "priceMultiple":
      return `price reaches ${condition.atLeast}x the average cost`;
    case "takeProfit":
      return `P&L on exit reaches +${condition.pnlPercent}%`;
    case "stopLoss":
      return `P&L on exit falls to ${condition.pnlPercent}%`;
    case "trailing":
      return `exit value drops ${condition.dropPercent}% from its high`;
    case "outsideBuys":
      return `outside buyers' net buying reaches ${condition.atLeastBnb} BNB ${
        condition.withinBlocks === undefined
          ? "since launch"
          : `within ${plural(condition.withinBlocks, "block")}`
      }`;
    case "curveProgress":
      return `curve progress reaches ${condition.atLeastPercent}%`;
    case "time":
      return condition.at !== undefined
        ? `the time is ${formatDateTime(condition.at)}`
        : `${plural(condition.afterMinutes ?? 0, "minute")} ${condition.afterMinutes === 1 ? "has" : "have"} passed since launch`;
  }
}

/** Conditions joined by "or" (any of them) or "and" (all of them). */
export function triggerWords(trigger: AutosellTrigger): string {
  return "any" in trigger
    ? trigger.any.map(conditionWords).join(" or ")
    : trigger.all.map(conditionWords).join(" and ");
}

const who = (action: AutosellAction): string => {
  const wallets = action.wallets
    ? `${plural(action.wallets.length, "chosen wallet")}`
    : "every bundle wallet";
  return action.includeDeveloper ? `${wallets} and the developer wallet` : wallets;
};

/** What a tier does, e.g. "Tier 1 sells 25% when price reaches 2x the average cost." */
export const tierWords = (index: number, percent: number, trigger: AutosellTrigger): string =>
  `Tier ${index + 1} sells ${percent}% when ${triggerWords(trigger)}.`;

/**
 * A rule's trigger and action as sentences: one for a plain rule, a line per tier for a
 * ladder (whose trigger is null: each tier has its own).
 */
export function ruleSentences(rule: Pick<AutosellRule, "trigger" | "action">): string[] {
  const { action } = rule;
  if ("tiers" in action) {
    return [
      `A ladder selling from ${who(action)}.`,
      ...action.tiers.map((tier, i) => tierWords(i, tier.percent, tier.trigger)),
    ];
  }
  const when = rule.trigger ? triggerWords(rule.trigger) : "its trigger is met";
  return [`Sells ${action.percent}% of ${who(action)}'s tokens when ${when}.`];
}

/** What fired: the tier's trigger for a ladder, else the rule's. */
export function firedWords(rule: Pick<AutosellRule, "trigger" | "action">, tier: number): string {
  const { action } = rule;
  if ("tiers" in action) {
    const fired = action.tiers[tier];
    return fired ? `tier ${tier + 1}, ${triggerWords(fired.trigger)}` : `tier ${tier + 1}`;
  }
  return rule.trigger ? triggerWords(rule.trigger) : "its trigger";
}

const grouping = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * A token amount the server wrote as a decimal ("1234567.891234") with thousands separators and
 * 4 decimals, rounded down as every token amount is; unparsable shows "—".
 *
 * @example
 * formatTokenText("1234567.891299"); // "1,234,567.8912"
 */
export function formatTokenText(text: string): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.replaceAll(",", "").trim());
  if (!match) return "—";
  const [, whole = "0", fraction = ""] = match;
  return `${grouping.format(BigInt(whole))}.${fraction.padEnd(4, "0").slice(0, 4)}`;
}
