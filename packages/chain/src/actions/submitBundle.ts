import { type Hex, keccak256, type LocalAccount } from "viem";
import { BundleRejectedError } from "../errors.ts";
import type { BuilderEndpoint } from "../profiles.ts";
import { signTransfer } from "./signTransfer.ts";

export interface SubmitBundleParameters {
  builders: readonly BuilderEndpoint[];
  /** Signed transactions, in order; each builder's tip is appended. */
  txs: readonly Hex[];
  tip: { account: LocalAccount; value: bigint; nonce: number; gasPrice: bigint; chainId: number };
  maxBlockNumber: bigint;
  timeoutMs?: number;
}

export interface SubmitBundleReturnType {
  /** Builders that took the bundle, with the hash of the tip they were paid. */
  accepted: Array<{ builder: string; tipHash: Hex; txs: Hex[] }>;
  rejected: Array<{ builder: string; reason: string }>;
}

/**
 * Sends one bundle to every builder at once, each with its own tip transaction at the
 * same nonce, so the first to land voids the others. Throws when every builder refuses.
 *
 * @example
 * const { accepted } = await submitBundle({ builders, txs, tip, maxBlockNumber: head + 5n });
 */
export const submitBundle = async (
  params: SubmitBundleParameters,
): Promise<SubmitBundleReturnType> => {
  const outcomes = await Promise.all(
    params.builders.map(async (builder) => {
      const tipTx = await signTransfer({ ...params.tip, to: builder.tipAddress });
      const txs = [...params.txs, tipTx];
      try {
        if (txs.length > builder.maxTxs) {
          throw new Error(`${txs.length} transactions exceed its cap of ${builder.maxTxs}`);
        }
        await sendBundleRpc(builder.url, txs, params.maxBlockNumber, params.timeoutMs ?? 15_000);
        return { ok: true as const, builder: builder.name, tipHash: keccak256(tipTx), txs };
      } catch (error) {
        return { ok: false as const, builder: builder.name, reason: (error as Error).message };
      }
    }),
  );
  const accepted = outcomes.flatMap((o) =>
    o.ok ? [{ builder: o.builder, tipHash: o.tipHash, txs: o.txs }] : [],
  );
  const rejected = outcomes.flatMap((o) =>
    o.ok ? [] : [{ builder: o.builder, reason: o.reason }],
  );
  if (accepted.length === 0) throw new BundleRejectedError(rejected);
  return { accepted, rejected };
};

const sendBundleRpc = async (
  url: string,
  txs: Hex[],
  maxBlockNumber: bigint,
  timeoutMs: number,
) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    signal: AbortSignal.timeout(timeoutMs),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_sendBundle",
      params: [{ txs, maxBlockNumber: Number(maxBlockNumber), revertingTxHashes: [] }],
    }),
  }).catch((error: Error) => {
    throw new Error(
      error.name === "TimeoutError"
        ? `no answer in ${timeoutMs} ms`
        : `unreachable (${error.message})`,
    );
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
};
