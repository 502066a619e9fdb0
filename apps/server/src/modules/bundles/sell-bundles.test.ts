import { describe, expect, it } from "vitest";
import { planSellBundles } from "./sell-bundles.ts";

/** A wallet's sell: its approval and sale (2), or its sale alone (1). */
const sells = (...sizes: number[]) =>
  sizes.map((size, i) => ({ id: i, intents: Array.from({ length: size }) }));
const ids = (bundles: Array<Array<{ id: number }>>) => bundles.map((b) => b.map((s) => s.id));
const plan = (list: ReturnType<typeof sells>, cap: number) =>
  planSellBundles(list, cap, (s) => s.intents.length);

describe("planSellBundles", () => {
  it("keeps sells that fit the cap with a tip in one bundle", () => {
    expect(ids(plan(sells(1, 1, 1), 4))).toEqual([[0, 1, 2]]);
  });

  it("leaves room for the tip: a cap of 50 takes 49 sales", () => {
    const bundles = plan(sells(...Array.from({ length: 50 }, () => 1)), 50);
    expect(bundles.map((b) => b.length)).toEqual([49, 1]);
  });

  it("never splits a wallet's approval from its sale, keeping the landing order", () => {
    expect(ids(plan(sells(2, 2, 1, 2), 5))).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it("plans nothing for no sells", () => {
    expect(plan([], 50)).toEqual([]);
  });
});
