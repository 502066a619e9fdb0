import { describe, expect, it } from "vitest";
import { percentOf, sellersOf } from "./autosell.engine.ts";
import { nextPeak, readCondition, readTrigger, type TokenReading } from "./autosell-triggers.ts";

const WHOLE = 10n ** 18n;
const reading = (over: Partial<TokenReading> = {}): TokenReading => ({
  block: 100n,
  blockTime: 1_800_000_000n,
  launchTime: 1_800_000_000n - 600n,
  priceWei: 30_000_000_000n,
  marketCapWei: 30n * WHOLE,
  bnbUsd: 600,
  curvePercent: 41.25,
  averageCostWei: 10_000_000_000n,
  exit: { exitWei: 2n * WHOLE, heldCostWei: 4n * WHOLE, tokensHeld: 1000n * WHOLE },
  outside: { sinceLaunch: WHOLE / 2n, within: new Map([[20, WHOLE / 4n]]) },
  problems: {},
  ...over,
});
const memory = { peakWei: null, armedBlock: 90n };

describe("readCondition", () => {
  it("says a condition whose input could not be read at this block is not met, and why", () => {
    const unread = reading({
      problems: { outside: { what: "the launchpad's events could not be read", why: "refused" } },
    });
    expect(readCondition({ type: "outsideBuys", atLeastBnb: "0.1" }, unread, memory)).toEqual({
      type: "outsideBuys",
      text: "outside buys: not read at this block (the launchpad's events could not be read)",
      met: false,
    });
    // A condition that does not read that input is read as usual.
    expect(readCondition({ type: "curveProgress", atLeastPercent: 40 }, unread, memory).met).toBe(
      true,
    );
  });

  it("reads a market cap in BNB against its value", () => {
    expect(
      readCondition({ type: "marketCap", atLeast: "60", unit: "BNB" }, reading(), memory),
    ).toEqual({ type: "marketCap", text: "market cap 30.0000 BNB of 60 BNB", met: false });
    expect(
      readCondition({ type: "marketCap", atLeast: "30", unit: "BNB" }, reading(), memory).met,
    ).toBe(true);
  });

  it("reads a market cap in USD at the app's BNB price, and is not met without one", () => {
    const usd = { type: "marketCap", atLeast: "18000", unit: "USD" } as const;
    expect(readCondition(usd, reading(), memory)).toMatchObject({
      text: "market cap $18,000.00 of $18,000.00",
      met: true,
    });
    expect(readCondition(usd, reading({ bnbUsd: null }), memory).met).toBe(false);
  });

  it("reads the price as a multiple of the ledger's average cost", () => {
    const read = readCondition({ type: "priceMultiple", atLeast: "3" }, reading(), memory);
    expect(read).toMatchObject({ text: "price 3.0000x the average cost, of 3x", met: true });
    expect(
      readCondition(
        { type: "priceMultiple", atLeast: "2" },
        reading({ averageCostWei: null }),
        memory,
      ).met,
    ).toBe(false);
  });

  it("reads the P&L on exit value for a stop loss and a take profit", () => {
    expect(readCondition({ type: "stopLoss", pnlPercent: -50 }, reading(), memory)).toMatchObject({
      text: "P&L on exit value -50.00% of -50.00%",
      met: true,
    });
    expect(readCondition({ type: "takeProfit", pnlPercent: 10 }, reading(), memory)).toMatchObject({
      text: "P&L on exit value -50.00% of +10.00%",
      met: false,
    });
  });

  it("reads a trailing stop's drop from its high, per token held", () => {
    const trailing = { type: "trailing", dropPercent: 30 } as const;
    // Exit per token now: 2 BNB / 1,000 tokens; the high was 4 BNB / 1,000 tokens.
    const peakWei = (4n * WHOLE) / 1000n;
    expect(readCondition(trailing, reading(), { ...memory, peakWei })).toMatchObject({
      text: "exit value 50.00% under its high since armed (per token held), of 30%",
      met: true,
    });
    expect(readCondition(trailing, reading(), memory).met).toBe(false);
  });

  it("reads outside buying since launch or within a window", () => {
    expect(
      readCondition({ type: "outsideBuys", atLeastBnb: "0.5" }, reading(), memory),
    ).toMatchObject({ text: "outside buys 0.5000 BNB net since launch, of 0.5 BNB", met: true });
    expect(
      readCondition(
        { type: "outsideBuys", atLeastBnb: "0.5", withinBlocks: 20 },
        reading(),
        memory,
      ),
    ).toMatchObject({
      text: "outside buys 0.2500 BNB net in the last 20 blocks, of 0.5 BNB",
      met: false,
    });
  });

  it("reads the curve's progress and a time after the launch", () => {
    expect(
      readCondition({ type: "curveProgress", atLeastPercent: 40 }, reading(), memory),
    ).toMatchObject({ text: "curve 41.25% filled, of 40%", met: true });
    expect(readCondition({ type: "time", afterMinutes: 15 }, reading(), memory)).toMatchObject({
      met: false,
      text: expect.stringMatching(/: 5 min left$/),
    });
    expect(readCondition({ type: "time", afterMinutes: 10 }, reading(), memory).met).toBe(true);
  });
});

describe("readTrigger", () => {
  const cap = { type: "marketCap", atLeast: "60", unit: "BNB" } as const;
  const curve = { type: "curveProgress", atLeastPercent: 40 } as const;
  it("is met by any of its conditions, or only by all of them", () => {
    expect(readTrigger({ any: [cap, curve] }, reading(), memory).met).toBe(true);
    expect(readTrigger({ all: [cap, curve] }, reading(), memory).met).toBe(false);
  });
});

describe("nextPeak", () => {
  it("keeps the higher of the last high and the exit value per token now", () => {
    const now = (2n * WHOLE) / 1000n;
    expect(nextPeak(memory, reading())).toBe(now);
    expect(nextPeak({ ...memory, peakWei: now * 2n }, reading())).toBe(now * 2n);
  });
});

describe("a ladder", () => {
  const ladder = {
    includeDeveloper: false,
    tiers: [
      { percent: 25, trigger: { any: [{ type: "priceMultiple", atLeast: "2" }] } },
      { percent: 25, trigger: { any: [{ type: "priceMultiple", atLeast: "3" }] } },
      { percent: 50, trigger: { any: [{ type: "trailing", dropPercent: 30 }] } },
    ],
  } as const;
  it("sells each tier's share of the starting holdings over what the tiers before it left", () => {
    expect(percentOf(ladder as never, 0, [])).toBe("25");
    expect(percentOf(ladder as never, 1, [0])).toBe("33.333333333333");
    expect(percentOf(ladder as never, 2, [0, 1])).toBe("100");
  });

  it("sells a plain rule's percent as its exact decimal", () => {
    expect(percentOf({ percent: 12.25, includeDeveloper: false }, 0, [])).toBe("12.25");
    expect(percentOf({ percent: 0.01, includeDeveloper: false }, 0, [])).toBe("0.01");
  });

  it("sells the chosen bundle wallets, then the developer when ticked", () => {
    const bundle = {
      token: "0xt",
      ownerId: "u",
      draftId: "d",
      launchBlock: 1n,
      wallets: ["0xa", "0xb", "0xc"],
      deployer: "0xd",
      tipPayer: "0xd",
    };
    expect(sellersOf({ percent: 50, includeDeveloper: false }, bundle)).toEqual([
      "0xa",
      "0xb",
      "0xc",
    ]);
    expect(
      sellersOf({ percent: 50, includeDeveloper: true, wallets: ["0xC" as `0x${string}`] }, bundle),
    ).toEqual(["0xc", "0xd"]);
  });
});
