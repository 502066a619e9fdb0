import {
  type BundleRefusal,
  BundleRejectedError,
  ChainError,
  InsufficientFundsError,
} from "@bundler/chain";
import { bnbWords } from "@bundler/shared";
import type { Address } from "viem";

/** 0.0001 BNB: the last decimal shown. */
const SHOWN_UNIT = 10n ** 14n;

/** Wei rounded up to the decimal shown: a shortfall never reads smaller than it is. */
const shortfallWords = (wei: bigint): string =>
  bnbWords(((wei + SHOWN_UNIT - 1n) / SHOWN_UNIT) * SHOWN_UNIT);

/** 500 basis points as "5%", 10 as "0.1%". */
export const percentOfBps = (bps: number): string => `${bps / 100}%`;

/** Why a wallet's sell was not sent, in words: the chain layer's, a gas shortfall said in BNB. */
export const sellReasonOf = (error: unknown): string => {
  if (error instanceof InsufficientFundsError)
    return `too little BNB for gas: wallet ${error.address} needs ${shortfallWords(error.shortfall)} more`;
  if (error instanceof ChainError) return error.shortMessage;
  return error instanceof Error ? (error.message.split("\n")[0] as string) : String(error);
};

/** No wallet of a bundle can pay the builder's tip on top of its own gas. */
export const tipShortfallWords = (payer: Address, shortfall: bigint, tip: bigint): string =>
  `too little BNB for the builder's tip: no wallet of this bundle can pay the ${bnbWords(tip)} tip and its gas (wallet ${payer}, the first, needs ${shortfallWords(shortfall)} more)`;

/** A sale's floor as priced: what the simulation said it fetches, and the least it may. */
export interface SaleFloor {
  wallet: Address;
  expected: bigint;
  floor: bigint;
}

/** The launchpad's and the DEX router's words for a price below a sale's floor. */
const BELOW_FLOOR = new Set([
  "Slippage",
  "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT",
  "PancakeRouter: INSUFFICIENT_OUTPUT_AMOUNT",
]);

/** A floor not met, with the figures: "simulated 0.1234 BNB, floor 0.1172 BNB". */
export const floorWords = (sale: SaleFloor, slippageBps: number): string =>
  `the sale by wallet ${sale.wallet} would fetch less than its floor (simulated ${bnbWords(sale.expected)}, floor ${bnbWords(sale.floor)}): the price moved by more than the ${percentOfBps(slippageBps)} slippage since it was priced`;

/**
 * Every builder's refusal of a sell bundle, as the launch terminal says them ("builder local
 * refused: ..."), a sale below its floor told with its figures.
 */
export const refusalWords = (
  error: unknown,
  floorOf: (hash: string) => SaleFloor | undefined,
  slippageBps: number,
): string => {
  if (!(error instanceof BundleRejectedError))
    return `the bundle could not be sent: ${sellReasonOf(error)}`;
  const words = (refusal: BundleRefusal) => {
    const blamed = refusal.transaction;
    const sale = blamed && floorOf(blamed.hash.toLowerCase());
    return sale && blamed.revert && BELOW_FLOOR.has(blamed.revert)
      ? floorWords(sale, slippageBps)
      : refusal.reason;
  };
  return `no builder took the bundle: ${error.reasons
    .map((r) => `builder ${r.builder} refused: ${words(r)}`)
    .join("; ")}`;
};
