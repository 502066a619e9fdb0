import { ChainError } from "../errors.ts";
import type { BuilderEndpoint } from "../profiles.ts";

/** One bundle of a launch: buyers [from, to), and the builders whose cap it fits. */
export interface BundlePlan {
  from: number;
  to: number;
  /** Transactions in the bundle: the create (first bundle only), the buys and a tip. */
  size: number;
  builders: BuilderEndpoint[];
}

/** [from, to) buyer ranges per bundle: the first also holds the create, each holds a tip. */
export const splitBuyers = (count: number, cap: number): Array<[number, number]> => {
  const groups: Array<[number, number]> = [];
  let from = Math.min(count, cap - 2);
  groups.push([0, from]);
  while (from < count) {
    const to = Math.min(count, from + cap - 1);
    groups.push([from, to]);
    from = to;
  }
  return groups;
};

/**
 * Splits a launch's buyers into bundles as large as the largest builder cap allows (so the
 * most buys share the create's block), and sends each bundle only to the builders whose
 * cap it fits: a small-cap builder never shrinks every bundle.
 *
 * @example
 * planBundles(80, [{ name: "48club", maxTxs: 5, ... }, { name: "blockrazor", maxTxs: 50, ... }])
 * // [{ from: 0, to: 48, size: 50, builders: [blockrazor] }, { from: 48, to: 80, size: 33, builders: [blockrazor] }]
 */
export const planBundles = (
  buyerCount: number,
  builders: readonly BuilderEndpoint[],
): BundlePlan[] => {
  if (builders.length === 0) throw new ChainError("no bundle builder is configured");
  const cap = Math.max(...builders.map((builder) => builder.maxTxs));
  if (cap < 3)
    throw new ChainError(`bundles of ${cap} transactions cannot hold a create, a buy and a tip`);
  return splitBuyers(buyerCount, cap).map(([from, to], index) => {
    const size = to - from + 1 + (index === 0 ? 1 : 0);
    return { from, to, size, builders: builders.filter((builder) => builder.maxTxs >= size) };
  });
};
