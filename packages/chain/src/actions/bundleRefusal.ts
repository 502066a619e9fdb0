import type { Hex } from "viem";
import { type BundleRefusal, explainRevert } from "../errors.ts";

export interface BundleRefusalParameters {
  builder: string;
  /** The builder's JSON-RPC error. */
  error: { message: string; data?: unknown };
  /** The bundle as sent: each transaction's hash and what it does ("the buy by wallet 0x…"). */
  txs: ReadonlyArray<{ hash: Hex; role: string }>;
}

const blamed = (data: unknown): { index?: number; hash?: string; reason?: string } => {
  if (typeof data !== "object" || data === null) return {};
  const { index, hash, reason } = data as Record<string, unknown>;
  return {
    index: typeof index === "number" && Number.isInteger(index) ? index : undefined,
    hash: typeof hash === "string" ? hash.toLowerCase() : undefined,
    reason: typeof reason === "string" && reason ? reason : undefined,
  };
};

/**
 * A builder's refusal in the user's words: the transaction it blames (by `error.data`'s
 * `index` or `hash`, as our dev builder and BSC builders report it) named by its role, and
 * a four.meme revert code translated. Without such data the builder's message is kept.
 *
 * @example
 * bundleRefusal({ builder: "local", error, txs })
 * // { builder: "local", reason: "the buy by wallet 0xabc… would revert: Slippage: the price moved past the slippage limit", ... }
 */
export const bundleRefusal = ({ builder, error, txs }: BundleRefusalParameters): BundleRefusal => {
  const data = blamed(error.data);
  const byHash = data.hash ? txs.findIndex((tx) => tx.hash.toLowerCase() === data.hash) : -1;
  const index = byHash >= 0 ? byHash : (data.index ?? -1);
  const tx = txs[index];
  if (!tx) return { builder, reason: error.message };
  // "transaction 1 (0x…) was refused: <node's words>": keep the node's words only.
  const words = error.message
    .replace(/^transaction \d+ \(0x[0-9a-fA-F]*\)\s*/, "")
    .replace(/^was refused:\s*/, "");
  const reason = data.reason
    ? `${tx.role} would revert: ${explainRevert(data.reason)}`
    : `${tx.role} was refused: ${words}`;
  return {
    builder,
    reason,
    transaction: { index, hash: tx.hash, role: tx.role, revert: data.reason },
  };
};
