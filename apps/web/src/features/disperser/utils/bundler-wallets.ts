import type { BundlerWallet } from "../../../lib/bundler-wallets.ts";

/** Shown when the launch page's hand-off cannot be read. */
export const DECRYPT_FAILED = "Failed to decrypt wallet data";

export type StoredBundlerWallets =
  | { status: "none" }
  | { status: "error"; error: string }
  | { status: "ok"; wallets: BundlerWallet[] };

const isEntry = (entry: unknown): entry is { address: string; buyValue?: unknown } =>
  typeof entry === "object" &&
  entry !== null &&
  typeof (entry as { address?: unknown }).address === "string";

const buyValueOf = (value: unknown): string | null => {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return String(value);
  return null;
};

/**
 * Reads the stored `bundler-wallets` value: nothing (absent or an empty list), the wallets, or
 * DECRYPT_FAILED when it is not the JSON list of `{address, buyValue}` the launch page writes.
 */
export function readBundlerWallets(raw: string | null): StoredBundlerWallets {
  if (raw === null || raw.trim() === "") return { status: "none" };
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { status: "error", error: DECRYPT_FAILED };
  }
  if (!Array.isArray(data)) return { status: "error", error: DECRYPT_FAILED };
  const wallets: BundlerWallet[] = [];
  for (const entry of data) {
    const buyValue = isEntry(entry) ? buyValueOf(entry.buyValue) : null;
    if (!isEntry(entry) || buyValue === null) return { status: "error", error: DECRYPT_FAILED };
    wallets.push({ address: entry.address.trim(), buyValue });
  }
  return wallets.length === 0 ? { status: "none" } : { status: "ok", wallets };
}
