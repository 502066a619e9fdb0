import { LaunchpadManagerArtifact } from "@bundler/contracts";
import { decodeFunctionData, type Hex, parseAbi, parseTransaction } from "viem";

const swapAbi = parseAbi([
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
]);

/** The tokens a signed sale sells: `sellToken(token, amount)` or the DEX swap's `amountIn`. */
export const soldAmountOf = (raw: Hex): bigint => {
  const data = parseTransaction(raw).data;
  if (!data) return 0n;
  for (const abi of [LaunchpadManagerArtifact.abi, swapAbi]) {
    try {
      const call = decodeFunctionData({ abi, data });
      if (call.functionName === "sellToken") return call.args?.[1] as bigint;
      if (call.functionName === "swapExactTokensForETH") return call.args?.[0] as bigint;
    } catch {
      // Not this contract's call.
    }
  }
  return 0n;
};
