import { formatGwei } from "viem";
import { ChainError } from "../errors.ts";
import type { BuilderEndpoint } from "../profiles.ts";

/** A launch's smallest first bundle: the create, one buy, the tip. */
export const LAUNCH_MIN_TXS = 3;

export interface CheckLaunchBuildersParameters {
  builders: readonly BuilderEndpoint[];
  /** The lowest gas price a launch signs at (the profile's floor), wei. */
  gasPrice: bigint;
}

export type CheckLaunchBuildersReturnType = BuilderEndpoint[];

/**
 * The builders that take a launch's smallest first bundle (the create, one buy and a tip)
 * priced at `gasPrice`: their cap holds 3 transactions and their gas price floor, if any, is
 * at most that price. Throws ChainError naming each builder's cap and floor when none does;
 * with no builder at all it answers none (the preflight refuses that in its own words).
 *
 * @example
 * checkLaunchBuilders({ builders, gasPrice: profile.gasPriceFloor });
 */
export const checkLaunchBuilders = ({
  builders,
  gasPrice,
}: CheckLaunchBuildersParameters): CheckLaunchBuildersReturnType => {
  const able = builders.filter(
    (builder) =>
      builder.maxTxs >= LAUNCH_MIN_TXS &&
      (builder.minGasPrice === undefined || builder.minGasPrice <= gasPrice),
  );
  if (able.length > 0 || builders.length === 0) return able;
  const why = builders.map(
    (builder) =>
      `${builder.name} takes ${builder.maxTxs} transactions${builder.minGasPrice === undefined ? "" : ` at ${formatGwei(builder.minGasPrice)} gwei or more`}`,
  );
  throw new ChainError(
    `no configured builder can take a launch (the create, one buy and a tip: ${LAUNCH_MIN_TXS} transactions, at the chain's gas price floor of ${formatGwei(gasPrice)} gwei): ${why.join("; ")}`,
  );
};
