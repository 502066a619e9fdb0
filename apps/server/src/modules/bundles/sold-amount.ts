import { LaunchpadManagerArtifact } from "@bundler/contracts";
import { decodeFunctionData, type Hex, parseAbi, parseTransaction } from "viem";

const swapAbi = parseAbi([
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
]);

/**
 * What a signed sale sells and its floor: the curve's `sellToken(token, amount)` (no floor),
 * its router variant `sellToken(origin, token, amount, minFunds, …)`, or the DEX swap's
 * `amountIn` and `amountOutMin`.
 */
export const saleOf = (raw: Hex): { amount: bigint; minOut: bigint | null } => {
  const data = parseTransaction(raw).data;
  if (!data) return { amount: 0n, minOut: null };
  for (const abi of [LaunchpadManagerArtifact.abi, swapAbi]) {
    try {
      const call = decodeFunctionData({ abi, data });
      const args = (call.args ?? []) as readonly unknown[];
      if (call.functionName === "sellToken")
        return args.length === 2
          ? { amount: args[1] as bigint, minOut: null }
          : { amount: args[2] as bigint, minOut: args[3] as bigint };
      if (call.functionName === "swapExactTokensForETH")
        return { amount: args[0] as bigint, minOut: args[1] as bigint };
    } catch {
      // Not this contract's call.
    }
  }
  return { amount: 0n, minOut: null };
};

/** The tokens a signed sale sells (see `saleOf`). */
export const soldAmountOf = (raw: Hex): bigint => saleOf(raw).amount;
