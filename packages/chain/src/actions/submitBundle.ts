import { formatGwei, type Hex, keccak256, type LocalAccount } from "viem";
import { type BundleRefusal, BundleRejectedError } from "../errors.ts";
import type { BuilderEndpoint } from "../profiles.ts";
import { bundleRefusal } from "./bundleRefusal.ts";
import { sign48spBundle } from "./sign48spBundle.ts";
import { signTransfer } from "./signTransfer.ts";

export interface SubmitBundleParameters {
  builders: readonly BuilderEndpoint[];
  /** Signed transactions, in order; each builder's tip is appended. */
  txs: readonly Hex[];
  /** What each transaction does, for refusals ("the create", "the buy by wallet 0x…"). */
  roles?: readonly string[];
  tip: { account: LocalAccount; value: bigint; nonce: number; gasPrice: bigint; chainId: number };
  maxBlockNumber: bigint;
  timeoutMs?: number;
}

export interface SubmitBundleReturnType {
  /** Builders that took the bundle, with the hash of the tip they were paid. */
  accepted: Array<{ builder: string; tipHash: Hex; txs: Hex[] }>;
  rejected: BundleRefusal[];
}

/**
 * Sends one bundle to every builder at once, each with its own tip transaction at the
 * same nonce, so the first to land voids the others. Throws BundleRejectedError when every
 * builder refuses, each refusal naming the transaction the builder blamed by its role.
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
      const roles = [
        ...params.txs.map((_, i) => params.roles?.[i] ?? `transaction ${i}`),
        `the tip to ${builder.name}`,
      ];
      const refuse = (error: { message: string; data?: unknown }) => ({
        ok: false as const,
        refusal: bundleRefusal({
          builder: builder.name,
          error,
          txs: txs.map((raw, i) => ({ hash: keccak256(raw), role: roles[i] ?? "" })),
        }),
      });
      if (txs.length > builder.maxTxs)
        return refuse({
          message: `${txs.length} transactions exceed its cap of ${builder.maxTxs}`,
        });
      if (builder.minGasPrice !== undefined && params.tip.gasPrice < builder.minGasPrice)
        return refuse({
          message: `the bundle's gas price of ${formatGwei(params.tip.gasPrice)} gwei is under its floor of ${formatGwei(builder.minGasPrice)} gwei`,
        });
      const error = await sendBundleRpc(
        builder,
        txs,
        params.maxBlockNumber,
        params.timeoutMs ?? 15_000,
      );
      if (error) return refuse(error);
      return { ok: true as const, builder: builder.name, tipHash: keccak256(tipTx), txs };
    }),
  );
  const accepted = outcomes.flatMap((o) =>
    o.ok ? [{ builder: o.builder, tipHash: o.tipHash, txs: o.txs }] : [],
  );
  const rejected = outcomes.flatMap((o) => (o.ok ? [] : [o.refusal]));
  if (accepted.length === 0) throw new BundleRejectedError(rejected);
  return { accepted, rejected };
};

/** Sends `eth_sendBundle`; answers the builder's error (message and data), or null. */
const sendBundleRpc = async (
  builder: BuilderEndpoint,
  txs: Hex[],
  maxBlockNumber: bigint,
  timeoutMs: number,
): Promise<{ message: string; data?: unknown } | null> => {
  // 48 Club takes a member's tier of transactions from a bundle its member key signed.
  const spSign = builder.signer
    ? { "48spSign": await sign48spBundle({ account: builder.signer, txs }) }
    : {};
  try {
    const response = await fetch(builder.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(builder.authorization ? { authorization: builder.authorization } : {}),
      },
      signal: AbortSignal.timeout(timeoutMs),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "eth_sendBundle",
        params: [{ txs, maxBlockNumber: Number(maxBlockNumber), revertingTxHashes: [], ...spSign }],
      }),
    });
    if (!response.ok) return { message: `HTTP ${response.status}` };
    const body = (await response.json().catch(() => null)) as {
      error?: { message: string; data?: unknown };
    } | null;
    if (!body) return { message: "answered with something other than JSON-RPC" };
    return body.error ? { message: body.error.message, data: body.error.data } : null;
  } catch (error) {
    const { name, message } = error as Error;
    return {
      message:
        name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : `unreachable (${message})`,
    };
  }
};
