import { type KeyedWallet, walletFromPrivateKey } from "./private-key.ts";

export const WALLET_JSON_ERRORS = {
  notJson: "Please upload a JSON file",
  notArray: "Invalid format: File must contain an array",
  badEntry: "Invalid format: Must match either Wagyu or simple format",
} as const;

export type WalletJsonResult = { ok: true; wallets: KeyedWallet[] } | { ok: false; error: string };

const isWagyuEntry = (entry: unknown): entry is { address: unknown; privateKey: unknown } =>
  typeof entry === "object" && entry !== null && "address" in entry && "privateKey" in entry;

/**
 * Reads an uploaded wallet file: Wagyu `[{address, privateKey}]` or simple `["0x…"]`.
 * Addresses are re-derived from the keys; entries whose key is not valid are dropped.
 */
export function parseWalletJson(fileName: string, text: string): WalletJsonResult {
  if (!fileName.toLowerCase().endsWith(".json"))
    return { ok: false, error: WALLET_JSON_ERRORS.notJson };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: WALLET_JSON_ERRORS.notJson };
  }
  if (!Array.isArray(data)) return { ok: false, error: WALLET_JSON_ERRORS.notArray };
  const keys: string[] = [];
  for (const entry of data) {
    if (isWagyuEntry(entry) && typeof entry.privateKey === "string") keys.push(entry.privateKey);
    else if (typeof entry === "string" && entry.startsWith("0x")) keys.push(entry);
    else return { ok: false, error: WALLET_JSON_ERRORS.badEntry };
  }
  const seen = new Set<string>();
  const wallets: KeyedWallet[] = [];
  for (const key of keys) {
    const wallet = walletFromPrivateKey(key);
    if (wallet && !seen.has(wallet.address)) {
      seen.add(wallet.address);
      wallets.push(wallet);
    }
  }
  return { ok: true, wallets };
}
