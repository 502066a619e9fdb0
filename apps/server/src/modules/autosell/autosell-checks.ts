import {
  type AutosellAction,
  type AutosellCondition,
  type AutosellExecution,
  type AutosellTrigger,
  bnbWords,
} from "@bundler/shared";
import { type Address, getAddress, parseEther } from "viem";
import { ServiceUnavailableError } from "../../lib/errors.ts";
import { FieldError } from "../../lib/parse-request.ts";
import type { BundleRow } from "../bundles/bundles.repository.ts";
import type { AutosellPreview, RuleSpec } from "./autosell-preview.ts";

/** A rule's trigger, action and execution as the routes parsed them (defaults filled in). */
export interface RuleInput {
  trigger?: AutosellTrigger | undefined;
  action: AutosellAction;
  execution: AutosellExecution;
}

/** One condition where the request holds it, and how a sentence names it. */
interface Located {
  condition: AutosellCondition;
  /** "Condition 2", or "Tier 1, condition 2" in a ladder. */
  name: string;
  field: string;
  row: number;
}

const conditionsOf = (
  trigger: AutosellTrigger,
  prefix: string,
): Array<[AutosellCondition, string]> =>
  "any" in trigger
    ? trigger.any.map((c, i) => [c, `${prefix}any.${i}`])
    : trigger.all.map((c, i) => [c, `${prefix}all.${i}`]);

/** Every condition of the rule: its trigger's, or each ladder tier's in order. */
const locate = (input: RuleInput): Located[] => {
  if ("tiers" in input.action)
    return input.action.tiers.flatMap((tier, t) =>
      conditionsOf(tier.trigger, `action.tiers.${t}.trigger.`).map(([condition, field], i) => ({
        condition,
        name: `Tier ${t + 1}, condition ${i + 1}`,
        field,
        row: t + 1,
      })),
    );
  if (!input.trigger) return [];
  return conditionsOf(input.trigger, "trigger.").map(([condition, field], i) => ({
    condition,
    name: `Condition ${i + 1}`,
    field,
    row: i + 1,
  }));
};

/** A ladder's tiers carry the triggers; any other action needs the rule's own. */
const checkTrigger = (input: RuleInput) => {
  const ladder = "tiers" in input.action;
  if (ladder && input.trigger)
    throw new FieldError({
      error: "A ladder's tiers have their own triggers: leave the rule's trigger out",
      field: "trigger",
    });
  if (!ladder && !input.trigger)
    throw new FieldError({
      error: "Trigger is required unless the action is a ladder of tiers",
      field: "trigger",
    });
};

/**
 * The chosen wallets as the bundle spells them (checksummed, each once): a 400 naming the
 * first that is not one of the bundle's wallets (the developer sells through its own tick).
 */
const walletsIn = (bundle: BundleRow, wallets: readonly string[]): Address[] => {
  const ours = new Map(bundle.wallets.map((w) => [w.toLowerCase(), getAddress(w)]));
  const picked = new Map<string, Address>();
  for (const [i, wallet] of wallets.entries()) {
    const own = ours.get(wallet.toLowerCase());
    if (!own)
      throw new FieldError({
        error: `Wallet ${i + 1} (${wallet}) is not one of this bundle's wallets`,
        field: `action.wallets.${i}`,
        row: i + 1,
      });
    picked.set(own.toLowerCase(), own);
  }
  return [...picked.values()];
};

/** A time condition names a moment to come or minutes after the launch: one of them. */
const checkTime = ({ condition, name, field, row }: Located, now: number) => {
  if (condition.type !== "time") return;
  const { at, afterMinutes } = condition;
  if ((at === undefined) === (afterMinutes === undefined))
    throw new FieldError({
      error: `${name}: a time needs either a moment or minutes after the launch, one of the two`,
      field,
      row,
    });
  if (at !== undefined && Date.parse(at) <= now)
    throw new FieldError({ error: `${name}: ${at} has already passed`, field, row });
};

const usdWords = (usd: number) =>
  `${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;

/**
 * A market cap to reach must be above today's: one at or below it would fire at once. Read
 * once for all the rule's market-cap conditions, only when it has some.
 */
const checkMarketCaps = async (
  located: Located[],
  token: Address,
  preview: AutosellPreview | undefined,
) => {
  const caps = located.filter((l) => l.condition.type === "marketCap");
  if (caps.length === 0) return;
  if (!preview) throw new ServiceUnavailableError("chain unavailable");
  const now = await preview.marketCapNow(token);
  for (const { condition, name, field, row } of caps) {
    if (condition.type !== "marketCap") continue;
    if (condition.unit === "USD") {
      if (now.usd === null)
        throw new ServiceUnavailableError(
          "The BNB price is unavailable now: set the market cap in BNB, or try again",
        );
      if (Number(condition.atLeast) <= now.usd)
        throw new FieldError({
          error: `${name}: the market cap is already ${usdWords(now.usd)}, at or above ${condition.atLeast} USD`,
          field,
          row,
        });
    } else if (parseEther(condition.atLeast) <= now.wei)
      throw new FieldError({
        error: `${name}: the market cap is already ${bnbWords(now.wei)}, at or above ${condition.atLeast} BNB`,
        field,
        row,
      });
  }
};

/**
 * The rule as it will be stored, once everything the schemas cannot see holds: where the
 * trigger is, the wallets are the bundle's, times are to come and market caps above today's.
 */
export const checkedSpec = async (
  bundle: BundleRow,
  input: RuleInput,
  preview: AutosellPreview | undefined,
  now = Date.now(),
): Promise<RuleSpec> => {
  checkTrigger(input);
  const wallets = input.action.wallets ? walletsIn(bundle, input.action.wallets) : undefined;
  const located = locate(input);
  for (const condition of located) checkTime(condition, now);
  await checkMarketCaps(located, getAddress(bundle.tokenAddress), preview);
  return {
    trigger: "tiers" in input.action ? null : (input.trigger ?? null),
    action: wallets ? { ...input.action, wallets } : input.action,
    execution: input.execution,
  };
};
