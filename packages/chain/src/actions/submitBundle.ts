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
  /**
   * Called once with every builder's answer, whether or not any builder took the bundle
   * (before `submitBundle` returns or throws). For statistics: it must not throw.
   */
  onAnswers?: (answers: BuilderAnswer[]) => void;
}

/**
 * One builder's answer to one bundle: `accepted`; `refused` with its words; `silent` (no
 * answer in time, or unreachable); `skipped` when it was never asked (over its cap, under its
 * gas floor).
 */
export interface BuilderAnswer {
  builder: string;
  answer: "accepted" | "refused" | "silent" | "skipped";
  /** The refusal in words (refused, silent, skipped); null when accepted. */
  reason: string | null;
  /** When the request left. */
  sentAt: Date;
  /** How long the answer took, ms (0 when skipped). */
  ms: number;
  /** The hash of this builder's tip transaction: the one that lands says who included it. */
  tipHash: Hex;
  /** The bundle's hash as the builder answered it (accepted only): what its status service knows. */
  bundleHash: Hex | null;
}

export interface SubmitBundleReturnType {
  /** Builders that took the bundle, with the hash of the tip they were paid. */
  accepted: Array<{ builder: string; tipHash: Hex; txs: Hex[] }>;
  rejected: BundleRefusal[];
  /** Every builder's answer, in the order of `builders`. */
  answers: BuilderAnswer[];
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
      const tipHash = keccak256(tipTx);
      let sentAt = new Date();
      const refuse = (
        error: { message: string; data?: unknown },
        kind: "refused" | "skipped" = "refused",
      ) => {
        const refusal = bundleRefusal({
          builder: builder.name,
          error,
          txs: txs.map((raw, i) => ({ hash: keccak256(raw), role: roles[i] ?? "" })),
        });
        const answer = kind === "skipped" ? kind : SILENT.test(error.message) ? "silent" : kind;
        return {
          ok: false as const,
          refusal,
          answer: answerOf(builder.name, answer, refusal.reason, sentAt, tipHash),
        };
      };
      if (txs.length > builder.maxTxs)
        return refuse(
          { message: `${txs.length} transactions exceed its cap of ${builder.maxTxs}` },
          "skipped",
        );
      if (builder.minGasPrice !== undefined && params.tip.gasPrice < builder.minGasPrice)
        return refuse(
          {
            message: `the bundle's gas price of ${formatGwei(params.tip.gasPrice)} gwei is under its floor of ${formatGwei(builder.minGasPrice)} gwei`,
          },
          "skipped",
        );
      sentAt = new Date();
      const sent = await sendBundleRpc(
        builder,
        txs,
        params.maxBlockNumber,
        params.timeoutMs ?? 15_000,
      );
      if ("error" in sent) return refuse(sent.error);
      return {
        ok: true as const,
        builder: builder.name,
        tipHash,
        txs,
        answer: answerOf(builder.name, "accepted", null, sentAt, tipHash, sent.bundleHash),
      };
    }),
  );
  const accepted = outcomes.flatMap((o) =>
    o.ok ? [{ builder: o.builder, tipHash: o.tipHash, txs: o.txs }] : [],
  );
  const rejected = outcomes.flatMap((o) => (o.ok ? [] : [o.refusal]));
  const answers = outcomes.map((o) => o.answer);
  try {
    params.onAnswers?.(answers);
  } catch {
    // Statistics never fail a send.
  }
  if (accepted.length === 0) throw new BundleRejectedError(rejected);
  return { accepted, rejected, answers };
};

/** `sendBundleRpc`'s words for a builder that never answered. */
const SILENT = /^(no answer in \d+ ms|unreachable \()/;

const answerOf = (
  builder: string,
  answer: BuilderAnswer["answer"],
  reason: string | null,
  sentAt: Date,
  tipHash: Hex,
  bundleHash: Hex | null = null,
): BuilderAnswer => ({
  builder,
  answer,
  reason,
  sentAt,
  ms: answer === "skipped" ? 0 : Date.now() - sentAt.getTime(),
  tipHash,
  bundleHash,
});

/** A bundle hash as builders answer it: the hash itself, or `{ bundleHash }`. */
const bundleHashOf = (result: unknown): Hex | null => {
  const value =
    typeof result === "object" && result !== null
      ? (result as { bundleHash?: unknown }).bundleHash
      : result;
  return typeof value === "string" && /^0x[0-9a-fA-F]{64}$/.test(value) ? (value as Hex) : null;
};

/**
 * Sends `eth_sendBundle`; answers the builder's error (message and data), or the bundle's
 * hash as it answered it (null when it answered none).
 */
const sendBundleRpc = async (
  builder: BuilderEndpoint,
  txs: Hex[],
  maxBlockNumber: bigint,
  timeoutMs: number,
): Promise<{ error: { message: string; data?: unknown } } | { bundleHash: Hex | null }> => {
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
    if (!response.ok) return { error: { message: `HTTP ${response.status}` } };
    const body = (await response.json().catch(() => null)) as {
      result?: unknown;
      error?: { message: string; data?: unknown };
    } | null;
    if (!body) return { error: { message: "answered with something other than JSON-RPC" } };
    return body.error
      ? { error: { message: body.error.message, data: body.error.data } }
      : { bundleHash: bundleHashOf(body.result) };
  } catch (error) {
    const { name, message } = error as Error;
    return {
      error: {
        message:
          name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : `unreachable (${message})`,
      },
    };
  }
};
