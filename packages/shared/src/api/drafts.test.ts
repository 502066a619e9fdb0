import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DELAY_MESSAGES,
  draftInputSchema,
  MAX_DELAY_SECONDS,
  TOKEN_AMOUNT_MESSAGE,
  TRADING_FEE_MESSAGE,
  tokenInfoSchema,
  walletConfigSchema,
} from "./drafts.ts";
import { describeRequestProblem } from "./field-labels.ts";
import { BNB_AMOUNT_LIMIT_MESSAGE } from "./money.ts";
import { isMinSharing, TAX_MESSAGES } from "./token-tax.ts";

const delays = (minDelay: unknown, maxDelay: unknown) =>
  walletConfigSchema.safeParse({ minDelay, maxDelay });

const messages = (result: ReturnType<typeof delays>) =>
  result.success ? [] : result.error.issues.map((issue) => issue.message);

describe("walletConfigSchema delays", () => {
  it("accepts any whole number of seconds from 0 to one hour, min not above max", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_DELAY_SECONDS }),
        fc.integer({ min: 0, max: MAX_DELAY_SECONDS }),
        (a, b) => delays(Math.min(a, b), Math.max(a, b)).success,
      ),
    );
  });

  it("refuses a delay over one hour with the limit in words", () => {
    expect(MAX_DELAY_SECONDS).toBe(3600);
    expect(messages(delays(0, 3601))).toEqual([DELAY_MESSAGES.tooLong]);
    expect(DELAY_MESSAGES.tooLong).toBe("Delay must be at most 3600 seconds (1 hour)");
    fc.assert(
      fc.property(fc.integer({ min: MAX_DELAY_SECONDS + 1 }), (delay) =>
        messages(delays(delay, delay)).includes(DELAY_MESSAGES.tooLong),
      ),
    );
  });

  it("refuses a delay too large for a timer, which once broke setTimeout", () => {
    expect(delays(2 ** 31, 2 ** 31).success).toBe(false);
  });

  it("refuses a minimum delay above the maximum", () => {
    expect(messages(delays(60, 30))).toEqual([DELAY_MESSAGES.order]);
    expect(DELAY_MESSAGES.order).toBe("Minimum delay must not exceed maximum delay");
  });

  it("refuses negative and fractional delays", () => {
    expect(delays(-1, 0).success).toBe(false);
    expect(delays(0, 1.5).success).toBe(false);
  });
});

const tokenInfo = (patch: Record<string, unknown>) =>
  tokenInfoSchema.safeParse({ name: "Moon", symbol: "MOON", description: "to the moon", ...patch });

const firstMessage = (result: {
  success: boolean;
  error?: { issues: Array<{ message: string }> };
}) => (result.success ? null : (result.error?.issues[0]?.message ?? null));

describe("tokenInfoSchema bounds", () => {
  it("accepts a trading fee that is a percent from 0 to 100 of at most 10 characters", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        (hundredths) => tokenInfo({ tradingFee: (hundredths / 100).toString() }).success,
      ),
    );
    expect(tokenInfo({}).data?.tradingFee).toBe("0.25");
  });

  it("refuses any other trading fee with the rule in words", () => {
    for (const tradingFee of ["100.01", "-1", "abc", "1e2", "0.12345678901", "1".repeat(100_000)])
      expect(firstMessage(tokenInfo({ tradingFee })), tradingFee).toBe(TRADING_FEE_MESSAGE);
    expect(TRADING_FEE_MESSAGE).toBe("Trading fee must be a percent from 0 to 100, like 0.25");
  });

  it("refuses a creator buy of a billion BNB or more", () => {
    expect(firstMessage(tokenInfo({ preSale: "1".repeat(40) }))).toBe(BNB_AMOUNT_LIMIT_MESSAGE);
  });
});

describe("walletConfigSchema bounds", () => {
  const wallet = {
    address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  };

  it("refuses a buy of a billion BNB or more", () => {
    const result = walletConfigSchema.safeParse({ wallets: [{ ...wallet, buyValue: "1e30" }] });
    expect(result.success).toBe(false);
    expect(
      firstMessage(
        walletConfigSchema.safeParse({ wallets: [{ ...wallet, buyValue: "9".repeat(30) }] }),
      ),
    ).toBe(BNB_AMOUNT_LIMIT_MESSAGE);
  });

  it("refuses a quoted token amount larger than the whole supply's digits", () => {
    const tokens = (tokenAmount: string) =>
      walletConfigSchema.safeParse({ wallets: [{ ...wallet, buyValue: "1", tokenAmount }] });
    expect(tokens(`1${"0".repeat(27)}`).success).toBe(true);
    expect(firstMessage(tokens("1".repeat(29)))).toBe(TOKEN_AMOUNT_MESSAGE);
  });

  it("refuses a tip of a billion BNB or more, and still words a bad tip as the spec does", () => {
    expect(firstMessage(walletConfigSchema.safeParse({ tip: "9".repeat(40) }))).toBe(
      `Tip ${BNB_AMOUNT_LIMIT_MESSAGE}`,
    );
    expect(firstMessage(walletConfigSchema.safeParse({ tip: "abc" }))).toBe("Tip must be a number");
    expect(walletConfigSchema.safeParse({ tip: "999999999.5" }).success).toBe(true);
  });
});

describe("a draft's tokenTaxInfo (four.meme's create guide §3.4)", () => {
  const tax = {
    feeRate: 5,
    burnRate: 20,
    divideRate: 30,
    liquidityRate: 40,
    recipientRate: 10,
    recipientAddress: "0x1234567890123456789012345678901234567890",
    minSharing: 100000,
  };
  const problem = (patch: Record<string, unknown>) =>
    describeRequestProblem(draftInputSchema, {
      tokenInfo: {
        name: "Moon",
        symbol: "MOON",
        description: "d",
        tokenTaxInfo: { ...tax, ...patch },
      },
    })?.error ?? null;

  it("accepts the guide's example and keeps it with four.meme's names", () => {
    expect(problem({})).toBeNull();
    expect(tokenInfo({ tokenTaxInfo: tax })).toMatchObject({
      success: true,
      data: { tokenTaxInfo: tax },
    });
  });

  it("refuses each broken rule with a sentence naming the field", () => {
    expect(problem({ feeRate: 4 })).toBe("Tax fee rate must be 1%, 3%, 5% or 10%");
    expect(problem({ divideRate: 31 })).toBe(
      "Burn, dividend, liquidity and recipient shares must add up to 100% (they add up to 101%)",
    );
    expect(problem({ liquidityRate: 39.5, divideRate: 30.5 })).toBe(
      "Dividend share must be a whole percent from 0 to 100",
    );
    expect(problem({ recipientAddress: "" })).toBe(
      "Recipient address is required when the recipient share is over 0%",
    );
    expect(problem({ minSharing: 150000 })).toBe(TAX_MESSAGES.minSharing);
    expect(problem({ minSharing: 10000 })).toBe(TAX_MESSAGES.minSharing);
    expect(problem({ recipientRate: 0, burnRate: 30, recipientAddress: "" })).toBeNull();
  });

  it("takes d × 10^n with n ≥ 5 and 1 ≤ d ≤ 9 as the minimum balance for dividends, nothing else", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 5, max: 14 }), (d, n) =>
        isMinSharing(d * 10 ** n),
      ),
    );
    for (const wrong of [0, 10000, 99999, 110000, 1000001, 1e21, -100000, 100000.5])
      expect(isMinSharing(wrong)).toBe(false);
  });
});
