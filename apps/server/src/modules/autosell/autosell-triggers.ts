import {
  type AutosellCondition,
  type AutosellReading,
  type AutosellTrigger,
  bnbWords,
  plural,
} from "@bundler/shared";
import { formatEther } from "viem";
import type { ReadProblem } from "./autosell-problems.ts";

const WHOLE = 10n ** 18n;

/** What the chain says of one token at one block: every input a condition reads. */
export interface TokenReading {
  block: bigint;
  /** The block's time, seconds. */
  blockTime: bigint;
  /** The launch's time, seconds (the launchpad's launchTime). */
  launchTime: bigint;
  /** The launchpad's price, wei per whole token, and price × supply, wei. */
  priceWei: bigint;
  marketCapWei: bigint;
  /** USD per BNB (null without a price). */
  bnbUsd: number | null;
  /** The curve's funds over what graduates it, percent (100 once graduated). */
  curvePercent: number;
  /** The bundle's average cost per whole token bought (P&L ledger), null before any buy. */
  averageCostWei: bigint | null;
  /**
   * The exit simulation (every wallet's tokens sold in one block): what it fetches, what the
   * tokens still held cost, and how many are held. Null when no condition of the token needs it.
   */
  exit: { exitWei: bigint; heldCostWei: bigint; tokensHeld: bigint } | null;
  /** Net outside buying, wei: since the launch, and within the last n blocks by n. */
  outside: { sinceLaunch: bigint; within: Map<number, bigint> };
  /** The inputs that could not be read at this block, and why (their values above are void). */
  problems: Partial<Record<ReadingInput, ReadProblem>>;
}

/** An input some conditions read besides the launchpad's price and funds. */
export type ReadingInput = "outside" | "exit" | "ledger" | "launchTime";

/** What each input is called where a rule's reading says it could not be read. */
export const INPUT_WORDS: Record<ReadingInput, string> = {
  outside: "outside buys",
  exit: "exit value",
  ledger: "the P&L ledger",
  launchTime: "the launch time",
};

/** The inputs a condition reads (besides the launchpad's price and funds). */
export const inputsOf = (condition: AutosellCondition): ReadingInput[] => {
  switch (condition.type) {
    case "priceMultiple":
      return ["ledger"];
    case "takeProfit":
    case "stopLoss":
      return ["exit", "ledger"];
    case "trailing":
      return ["exit"];
    case "outsideBuys":
      return ["outside"];
    case "time":
      return condition.afterMinutes !== undefined ? ["launchTime"] : [];
    default:
      return [];
  }
};

/** What a condition is called when its input could not be read. */
const CONDITION_WORDS: Record<AutosellCondition["type"], string> = {
  marketCap: "market cap",
  priceMultiple: "price multiple",
  takeProfit: "P&L on exit value",
  stopLoss: "P&L on exit value",
  trailing: "trailing stop",
  outsideBuys: "outside buys",
  curveProgress: "curve",
  time: "time",
};

/** A rule's memory between blocks: the trailing stop's high and the block it was armed at. */
export interface TriggerMemory {
  /** The highest exit value per whole token held since arming, wei. */
  peakWei: bigint | null;
  armedBlock: bigint;
}

export interface ConditionReading {
  type: AutosellCondition["type"];
  text: string;
  met: boolean;
}

const percentText = (value: number) =>
  `${value > 0 ? "+" : ""}${value.toFixed(2)}%`.replace("+-", "-");
const usdText = (value: number) =>
  `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
/** a / b as a number with 4 decimals of precision, for percents and multiples. */
const ratio = (a: bigint, b: bigint): number => (b === 0n ? 0 : Number((a * 10_000n) / b) / 10_000);
const weiOf = (bnb: string): bigint => {
  const [whole = "0", fraction = ""] = bnb.split(".");
  return BigInt(whole) * WHOLE + BigInt((fraction + "0".repeat(18)).slice(0, 18));
};

/** Exit value per whole token held, wei (null when nothing is held). */
export const exitPerToken = (reading: TokenReading): bigint | null =>
  reading.exit && reading.exit.tokensHeld > 0n
    ? (reading.exit.exitWei * WHOLE) / reading.exit.tokensHeld
    : null;

/**
 * One condition at one block: met or not, and its input in words ("market cap 41.2000 BNB of
 * 60 BNB"). An input the chain cannot give yet (no buy in the ledger, nothing held), or that
 * could not be read at this block, is not met.
 */
export const readCondition = (
  condition: AutosellCondition,
  reading: TokenReading,
  memory: TriggerMemory,
): ConditionReading => {
  const { type } = condition;
  const unread = inputsOf(condition).find((input) => reading.problems[input]);
  if (unread)
    return {
      type,
      text: `${CONDITION_WORDS[type]}: not read at this block (${reading.problems[unread]?.what})`,
      met: false,
    };
  switch (condition.type) {
    case "marketCap": {
      if (condition.unit === "USD") {
        if (reading.bnbUsd === null)
          return { type, text: "market cap in USD: no BNB price now", met: false };
        const usd = Number(formatEther(reading.marketCapWei)) * reading.bnbUsd;
        const target = Number(condition.atLeast);
        return {
          type,
          text: `market cap ${usdText(usd)} of ${usdText(target)}`,
          met: usd >= target,
        };
      }
      const target = weiOf(condition.atLeast);
      return {
        type,
        text: `market cap ${bnbWords(reading.marketCapWei)} of ${condition.atLeast} BNB`,
        met: reading.marketCapWei >= target,
      };
    }
    case "priceMultiple": {
      if (!reading.averageCostWei)
        return { type, text: "price multiple: no buy in the ledger yet", met: false };
      const multiple = ratio(reading.priceWei, reading.averageCostWei);
      return {
        type,
        text: `price ${multiple.toFixed(4)}x the average cost, of ${condition.atLeast}x`,
        met: reading.priceWei * WHOLE >= weiOf(condition.atLeast) * reading.averageCostWei,
      };
    }
    case "takeProfit":
    case "stopLoss": {
      const exit = reading.exit;
      if (!exit || exit.heldCostWei === 0n)
        return { type, text: "P&L on exit value: nothing held", met: false };
      const pnl = ratio((exit.exitWei - exit.heldCostWei) * 100n, exit.heldCostWei);
      const target = condition.pnlPercent;
      return {
        type,
        text: `P&L on exit value ${percentText(pnl)} of ${percentText(target)}`,
        met: type === "takeProfit" ? pnl >= target : pnl <= target,
      };
    }
    case "trailing": {
      const now = exitPerToken(reading);
      const peak = memory.peakWei;
      if (now === null || peak === null || peak === 0n)
        return { type, text: "trailing stop: nothing held", met: false };
      const drop = ratio((peak - now) * 100n, peak);
      return {
        type,
        text: `exit value ${drop.toFixed(2)}% under its high since armed (per token held), of ${condition.dropPercent}%`,
        met: drop >= condition.dropPercent,
      };
    }
    case "outsideBuys": {
      const net =
        condition.withinBlocks === undefined
          ? reading.outside.sinceLaunch
          : (reading.outside.within.get(condition.withinBlocks) ?? 0n);
      const span =
        condition.withinBlocks === undefined
          ? "since launch"
          : `in the last ${plural(condition.withinBlocks, "block")}`;
      return {
        type,
        text: `outside buys ${bnbWords(net)} net ${span}, of ${condition.atLeastBnb} BNB`,
        met: net >= weiOf(condition.atLeastBnb),
      };
    }
    case "curveProgress":
      return {
        type,
        text: `curve ${reading.curvePercent.toFixed(2)}% filled, of ${condition.atLeastPercent}%`,
        met: reading.curvePercent >= condition.atLeastPercent,
      };
    case "time": {
      const at =
        condition.at !== undefined
          ? BigInt(Math.floor(Date.parse(condition.at) / 1000))
          : reading.launchTime + BigInt(Math.round((condition.afterMinutes ?? 0) * 60));
      const left = Number(at - reading.blockTime);
      const when = new Date(Number(at) * 1000).toISOString().replace(".000Z", "Z");
      return {
        type,
        text:
          left > 0
            ? `at ${when}: ${Math.ceil(left / 60)} min left`
            : `at ${when}: the time has come`,
        met: left <= 0,
      };
    }
  }
};

/** A trigger at one block: every condition's reading, and whether any (or all) are met. */
export const readTrigger = (
  trigger: AutosellTrigger,
  reading: TokenReading,
  memory: TriggerMemory,
  tier?: number,
): { met: boolean; conditions: Array<ConditionReading & { tier?: number }> } => {
  const list = "any" in trigger ? trigger.any : trigger.all;
  const conditions = list.map((c) => ({
    ...readCondition(c, reading, memory),
    ...(tier !== undefined ? { tier } : {}),
  }));
  const met = "any" in trigger ? conditions.some((c) => c.met) : conditions.every((c) => c.met);
  return { met, conditions };
};

/** The trailing stop's new high: the higher of the last one and the exit value per token now. */
export const nextPeak = (memory: TriggerMemory, reading: TokenReading): bigint | null => {
  const now = exitPerToken(reading);
  if (now === null) return memory.peakWei;
  return memory.peakWei === null || now > memory.peakWei ? now : memory.peakWei;
};

export const readingOf = (
  block: bigint,
  conditions: AutosellReading["conditions"],
): AutosellReading => ({ block: block.toString(), conditions });

/** Which inputs a set of triggers reads: the exit simulation, outside flows, the ledger. */
export const needsOf = (triggers: readonly AutosellTrigger[]) => {
  const types = new Set(triggers.flatMap((t) => ("any" in t ? t.any : t.all).map((c) => c.type)));
  const windows = new Set(
    triggers.flatMap((t) =>
      ("any" in t ? t.any : t.all).flatMap((c) =>
        c.type === "outsideBuys" && c.withinBlocks !== undefined ? [c.withinBlocks] : [],
      ),
    ),
  );
  return {
    exit: types.has("takeProfit") || types.has("stopLoss") || types.has("trailing"),
    ledger:
      types.has("priceMultiple") ||
      types.has("takeProfit") ||
      types.has("stopLoss") ||
      types.has("trailing"),
    outside: types.has("outsideBuys"),
    time: types.has("time"),
    windows,
  };
};
