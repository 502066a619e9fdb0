import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { autosellActionSchema, percentBps } from "./autosell.ts";

const action = (percent: number) => autosellActionSchema.safeParse({ percent });

describe("a percent to sell", () => {
  it("takes every percent with at most 2 decimals, as exactly its basis points", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (bps) => {
        const percent = bps / 100;
        expect(action(percent).success).toBe(true);
        expect(percentBps(percent)).toBe(BigInt(bps));
      }),
    );
  });

  it("refuses a percent with a third decimal, naming the limit", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999 }).filter((n) => n % 10 !== 0),
        (thousandths) => {
          const parsed = action(thousandths / 1000);
          expect(parsed.success).toBe(false);
          expect(parsed.error?.issues[0]?.message).toMatch(/at most 2 decimals/);
        },
      ),
    );
  });

  it("refuses a percent only an exponent writes, such as 1e-7", () => {
    expect(action(1e-7).success).toBe(false);
    expect(action(5e-324).success).toBe(false);
  });
});
