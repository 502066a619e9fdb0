import type { Hex } from "viem";
import { BundleTimeoutError } from "../errors.ts";
import { rpcBatch } from "./rpcBatch.ts";

export interface WaitForBundleParameters {
  /** Any transaction of the bundle (the last one is the usual choice). */
  txHash: Hex;
  /** Each builder's tip hash: the one that lands tells which builder included it. */
  tips: ReadonlyArray<{ builder: string; tipHash: Hex }>;
  maxBlockNumber: bigint;
  pollMs?: number;
}

export interface WaitForBundleReturnType {
  blockNumber: bigint;
  builder: string | null;
}

/**
 * Polls (one batched request per poll) until the bundle is in a block, or the chain
 * passes `maxBlockNumber` without it.
 *
 * @example
 * const { blockNumber, builder } = await waitForBundle(rpcUrl, { txHash, tips, maxBlockNumber });
 */
export const waitForBundle = async (
  rpcUrl: string,
  params: WaitForBundleParameters,
): Promise<WaitForBundleReturnType> => {
  let lastChecked = 0n;
  for (;;) {
    const answers = await rpcBatch<unknown>(rpcUrl, [
      { method: "eth_blockNumber", params: [] },
      { method: "eth_getTransactionReceipt", params: [params.txHash] },
      ...params.tips.map((tip) => ({ method: "eth_getTransactionReceipt", params: [tip.tipHash] })),
    ]);
    const head = BigInt((answers[0]?.result as Hex | undefined) ?? "0x0");
    const receipt = answers[1]?.result as { blockNumber: Hex } | null | undefined;
    if (receipt) {
      const landed = params.tips.findIndex((_, i) => Boolean(answers[i + 2]?.result));
      return {
        blockNumber: BigInt(receipt.blockNumber),
        builder: params.tips[landed]?.builder ?? null,
      };
    }
    lastChecked = head;
    if (head >= params.maxBlockNumber)
      throw new BundleTimeoutError(lastChecked, params.maxBlockNumber);
    await new Promise((resolve) => setTimeout(resolve, params.pollMs ?? 250));
  }
};
