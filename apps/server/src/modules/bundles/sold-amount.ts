import { LaunchpadManagerArtifact } from "@bundler/contracts";
import { decodeFunctionData, type Hex, parseAbi, parseTransaction } from "viem";

const swapAbi = parseAbi([
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
  "function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
]);

/**
 * What a signed sale sells and its floor, as signed: the curve's `sellToken(token, amount)` (no
 * floor), its router variant `sellToken(origin, token, amount, minFunds, …)` (a floor on the
 * gross curve quote, before the launchpad's fee), or the DEX swap's (a tax token's
 * fee-on-transfer one too) `amountIn` and `amountOutMin` (a floor on what the seller gets).
 */
export const saleOf = (raw: Hex): { amount: bigint; minFunds: bigint | null; onCurve: boolean } => {
  const data = parseTransaction(raw).data;
  if (!data) return { amount: 0n, minFunds: null, onCurve: false };
  for (const abi of [LaunchpadManagerArtifact.abi, swapAbi]) {
    try {
      const call = decodeFunctionData({ abi, data });
      const args = (call.args ?? []) as readonly unknown[];
      if (call.functionName === "sellToken")
        return args.length === 2
          ? { amount: args[1] as bigint, minFunds: null, onCurve: true }
          : { amount: args[2] as bigint, minFunds: args[3] as bigint, onCurve: true };
      if (
        call.functionName === "swapExactTokensForETH" ||
        call.functionName === "swapExactTokensForETHSupportingFeeOnTransferTokens"
      )
        return { amount: args[0] as bigint, minFunds: args[1] as bigint, onCurve: false };
    } catch {
      // Not this contract's call.
    }
  }
  return { amount: 0n, minFunds: null, onCurve: false };
};

/** The tokens a signed sale sells (see `saleOf`). */
export const soldAmountOf = (raw: Hex): bigint => saleOf(raw).amount;
