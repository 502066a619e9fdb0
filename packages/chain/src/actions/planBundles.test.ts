import { describe, expect, it } from "vitest";
import type { BuilderEndpoint } from "../profiles.ts";
import { planBundles, splitBuyers } from "./planBundles.ts";

const builder = (name: string, maxTxs: number): BuilderEndpoint => ({
  name,
  url: `https://${name}.example`,
  tipAddress: "0x000000000000000000000000000000000000bEEF",
  maxTxs,
});
const names = (plan: ReturnType<typeof planBundles>) =>
  plan.map((bundle) => [bundle.from, bundle.to, bundle.size, bundle.builders.map((b) => b.name)]);

describe("splitBuyers", () => {
  it("keeps the create, the first buys and a tip in the first bundle", () => {
    expect(splitBuyers(50, 52)).toEqual([[0, 50]]);
    expect(splitBuyers(80, 50)).toEqual([
      [0, 48],
      [48, 80],
    ]);
    expect(splitBuyers(48, 50)).toEqual([[0, 48]]);
    expect(splitBuyers(0, 50)).toEqual([[0, 0]]);
  });
});

describe("planBundles", () => {
  it("splits by the largest cap, not the smallest", () => {
    const plan = planBundles(80, [builder("48club", 5), builder("blockrazor", 50)]);
    expect(names(plan)).toEqual([
      [0, 48, 50, ["blockrazor"]],
      [48, 80, 33, ["blockrazor"]],
    ]);
  });

  it("sends a bundle to every builder whose cap it fits", () => {
    const builders = [builder("48club", 5), builder("blockrazor", 50), builder("nodereal", 50)];
    expect(names(planBundles(3, builders))).toEqual([
      [0, 3, 5, ["48club", "blockrazor", "nodereal"]],
    ]);
    expect(names(planBundles(52, builders))).toEqual([
      [0, 48, 50, ["blockrazor", "nodereal"]],
      [48, 52, 5, ["48club", "blockrazor", "nodereal"]],
    ]);
  });

  it("gives a launch without buyers one bundle: the create and the tip", () => {
    expect(names(planBundles(0, [builder("dev", 50)]))).toEqual([[0, 0, 2, ["dev"]]]);
  });

  it("refuses when no builder is configured, or none can hold a create, a buy and a tip", () => {
    expect(() => planBundles(3, [])).toThrow("no bundle builder is configured");
    expect(() => planBundles(3, [builder("tiny", 2)])).toThrow(
      "bundles of 2 transactions cannot hold a create, a buy and a tip",
    );
  });
});
