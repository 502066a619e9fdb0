import { ADDRESS_PATTERN, type CreateDispersalBody, type DispersalChain } from "@bundler/shared";
import { fromWei, toWei } from "../../../lib/bnb.ts";

/** One line of the manual grid: what the user typed, unchecked. */
export interface WalletRow {
  id: number;
  address: string;
  amount: string;
}

/** What [recommend] fills into the balance buffer, BNB. */
export const RECOMMENDED_BUFFER = "0.01";

export const DISPERSER_MESSAGES = {
  buffer: "Please add a buffer (we recommend 0.01 BNB to cover future transactions)",
  wallets: "Please add some wallets.",
  amounts: "Please add some amounts.",
} as const;

/** Rows with a malformed amount are refused, naming the row as the grid numbers it. */
export const invalidAmountMessage = (rowNumber: number, amount: string) =>
  `Invalid amount in row ${rowNumber}: "${amount}"`;

export const isAddress = (value: string): boolean => ADDRESS_PATTERN.test(value.trim());

/** A typed BNB amount as wei; ".5" reads as 0.5; empty or junk is null. */
export function amountWei(value: string): bigint | null {
  const text = value.trim();
  return toWei(text.startsWith(".") ? `0${text}` : text);
}

/** What one wallet receives: its row's amount (0 when unparsable) plus the buffer. */
export function walletAmount(rowAmount: string, buffer: string): string {
  return fromWei((amountWei(rowAmount) ?? 0n) + (amountWei(buffer) ?? 0n));
}

/** The rows that are sent: those with a valid address (the others are dropped silently). */
export const sendableRows = (rows: readonly WalletRow[]): WalletRow[] =>
  rows.filter((row) => isAddress(row.address));

export interface DispersalSummary {
  /** Rows with a valid address. */
  wallets: number;
  /** Sum of every sent wallet's amount (row + buffer), exact BNB; "0" when nothing parses. */
  total: string;
}

export function summarizeDispersal(rows: readonly WalletRow[], buffer: string): DispersalSummary {
  const sent = sendableRows(rows);
  const total = sent.reduce(
    (sum, row) => sum + (amountWei(row.amount) ?? 0n) + (amountWei(buffer) ?? 0n),
    0n,
  );
  return { wallets: sent.length, total: fromWei(total) };
}

export type PreparedDispersal =
  | { ok: true; body: CreateDispersalBody }
  | { ok: false; error: string };

/**
 * Checks the form in the spec's order (buffer, wallets, amounts) and builds the request:
 * every row with a valid address, each sent its amount plus the buffer.
 */
export function prepareDispersal(
  rows: readonly WalletRow[],
  buffer: string,
  antiBubblemaps: boolean,
): PreparedDispersal {
  const bufferWei = amountWei(buffer);
  if (bufferWei === null || bufferWei <= 0n) return { ok: false, error: DISPERSER_MESSAGES.buffer };
  const sent = sendableRows(rows);
  if (sent.length === 0) return { ok: false, error: DISPERSER_MESSAGES.wallets };
  if (!sent.some((row) => (amountWei(row.amount) ?? 0n) > 0n)) {
    return { ok: false, error: DISPERSER_MESSAGES.amounts };
  }
  const malformed = rows.find(
    (row) => isAddress(row.address) && row.amount.trim() !== "" && amountWei(row.amount) === null,
  );
  if (malformed) {
    return {
      ok: false,
      error: invalidAmountMessage(rows.indexOf(malformed) + 1, malformed.amount.trim()),
    };
  }
  return {
    ok: true,
    body: {
      wallets: sent.map((row) => row.address.trim()),
      amounts: sent.map((row) => walletAmount(row.amount, buffer)),
      antiBubblemaps,
    },
  };
}

/**
 * After a dispersal delivered, which rows stay on the grid: only those of destinations it did
 * not pay (a partial one's failed chains), so a second click cannot pay anyone twice. After a
 * completed dispersal none stays.
 */
export function undeliveredRow(
  chains: readonly Pick<DispersalChain, "finalWallet" | "completed">[],
): (row: WalletRow) => boolean {
  const unpaid = new Set(
    chains.filter((chain) => !chain.completed).map((chain) => chain.finalWallet.toLowerCase()),
  );
  return (row) => isAddress(row.address) && unpaid.has(row.address.trim().toLowerCase());
}
