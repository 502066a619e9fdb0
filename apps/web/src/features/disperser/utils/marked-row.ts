import { ApiError } from "../../../lib/api-error.ts";
import type { WalletRow } from "./dispersal-form.ts";

/** A grid row the server refused, which of its inputs, and why. */
export interface MarkedRow {
  id: number;
  input: "address" | "amount";
  message: string;
}

/**
 * The grid row a refused dispersal names: a 400 says where its problem is (`field`, e.g.
 * "amounts.2", and `row`, counted from 1 over the rows it was sent: those with a valid address,
 * in order). null when the failure names no row.
 */
export function markedRowOf(error: unknown, sent: readonly WalletRow[]): MarkedRow | null {
  if (!(error instanceof ApiError)) return null;
  const { field, row } = error as { field?: unknown; row?: unknown };
  if (typeof field !== "string" || typeof row !== "number") return null;
  const list = field.split(".")[0];
  const marked = sent[row - 1];
  if (!marked || (list !== "wallets" && list !== "amounts")) return null;
  return {
    id: marked.id,
    input: list === "wallets" ? "address" : "amount",
    message: error.serverMessage ?? error.title,
  };
}
