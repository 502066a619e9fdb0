import type { Address } from "viem";

/** Fresh intermediate wallets on one anti-bubblemaps chain (SPEC §9). */
export const WALLETS_PER_CHAIN = 10;
/** Transfers between the intermediate wallets of one chain: the "Hop k/9" of the screen. */
export const HOPS_PER_CHAIN = WALLETS_PER_CHAIN - 1;
/** A plain BNB transfer between accounts without code. */
export const TRANSFER_GAS = 21_000n;

export interface PlanDispersalParameters {
  destinations: ReadonlyArray<{ address: Address; amount: bigint }>;
  /** Route each destination through its own chain of intermediate wallets. */
  antiBubblemaps: boolean;
  /** Legacy gas price every transfer of the dispersal will use. */
  gasPrice: bigint;
}

export interface DispersalLeg {
  destination: Address;
  /** What the destination must end with. */
  amount: bigint;
  /**
   * Value of each transfer along the chain. Direct: [receiver → destination]. Anti bubblemaps:
   * [receiver → w1, w1 → w2, ..., w9 → w10, w10 → destination], 11 transfers of which the
   * middle 9 are the hops.
   */
  transfers: bigint[];
}

export interface PlanDispersalReturnType {
  legs: DispersalLeg[];
  /** What the receiving wallet must hold: every first transfer plus its gas. */
  total: bigint;
  /** Gas the whole dispersal burns. */
  gas: bigint;
}

/**
 * Plans a dispersal so every destination receives exactly its amount and every
 * intermediate wallet ends at zero: each transfer carries the amount plus the exact gas
 * of the transfers still ahead of it.
 *
 * @example
 * const plan = planDispersal({ destinations, antiBubblemaps: true, gasPrice: parseGwei("1") });
 */
export const planDispersal = (params: PlanDispersalParameters): PlanDispersalReturnType => {
  const transfersPerLeg = params.antiBubblemaps ? WALLETS_PER_CHAIN + 1 : 1;
  const fee = TRANSFER_GAS * params.gasPrice;
  const legs = params.destinations.map(({ address, amount }) => {
    if (amount <= 0n) throw new RangeError(`the amount for ${address} must be above zero`);
    // The k-th transfer still has (transfersPerLeg - 1 - k) transfers to pay for after it.
    const transfers = Array.from(
      { length: transfersPerLeg },
      (_, k) => amount + BigInt(transfersPerLeg - 1 - k) * fee,
    );
    return { destination: address, amount, transfers };
  });
  const gas = BigInt(legs.length * transfersPerLeg) * fee;
  const total = legs.reduce((sum, leg) => sum + (leg.transfers[0] ?? 0n) + fee, 0n);
  return { legs, total, gas };
};
