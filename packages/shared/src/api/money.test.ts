import fc from "fast-check";
import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { BNB_AMOUNT_LIMIT_MESSAGE, bnbAmountSchema, bnbValueSchema } from "./money.ts";

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });

/** Any decimal string: integer digits, then maybe a point and 1..18 decimals. */
const decimal = (integerDigits: { min: number; max: number }) =>
  fc
    .tuple(digits(integerDigits.min, integerDigits.max), fc.option(digits(1, 18)))
    .map(([whole, fraction]) => (fraction === null ? whole : `${whole}.${fraction}`));

const messages = (value: string) => {
  const result = bnbAmountSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("bnbAmountSchema", () => {
  it("parses anything it accepts to less than 1e27 wei (1e9 BNB), which numeric(78,0) holds", () => {
    fc.assert(
      fc.property(fc.oneof(decimal({ min: 1, max: 40 }), fc.string()), (value) => {
        const result = bnbAmountSchema.safeParse(value);
        if (!result.success) return true;
        const wei = parseEther(result.data);
        return wei >= 0n && wei < 10n ** 27n;
      }),
    );
  });

  it("accepts every amount below 1,000,000,000 BNB with up to 18 decimals", () => {
    fc.assert(fc.property(decimal({ min: 1, max: 9 }), (value) => messages(value).length === 0));
    expect(bnbAmountSchema.parse("999999999.999999999999999999")).toBe(
      "999999999.999999999999999999",
    );
  });

  it("refuses an amount of 1,000,000,000 BNB or more with the limit in words", () => {
    expect(BNB_AMOUNT_LIMIT_MESSAGE).toBe("must be a BNB amount below 1,000,000,000");
    expect(messages("1000000000")).toEqual([BNB_AMOUNT_LIMIT_MESSAGE]);
    fc.assert(
      fc.property(decimal({ min: 10, max: 200 }), (value) =>
        messages(value).includes(BNB_AMOUNT_LIMIT_MESSAGE),
      ),
    );
  });

  it("refuses more than 18 decimals, signs, exponents and words", () => {
    for (const value of ["0.1234567890123456789", "-1", "+1", "1e9", "1,5", "", "abc", "."])
      expect(bnbAmountSchema.safeParse(value).success, value).toBe(false);
  });
});

describe("bnbValueSchema", () => {
  it("reports any size the chain or a sum may reach", () => {
    expect(bnbValueSchema.parse("123456789012345.5")).toBe("123456789012345.5");
  });
});
