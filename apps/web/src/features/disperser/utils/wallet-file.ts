import Papa from "papaparse";
import { isAddress } from "./dispersal-form.ts";

export const WALLET_FILE_ERRORS = {
  type: "Please upload a CSV or TXT file",
  empty: "No valid wallets found in the file",
} as const;

/** What the upload control accepts. */
export const WALLET_FILE_ACCEPT = ".csv,.txt,text/csv,text/plain";

export const isWalletFileName = (name: string): boolean => /\.(csv|txt)$/i.test(name.trim());

export interface FileWallet {
  address: string;
  amount: string;
}

/** A row papaparse left whole (no delimiter in it): `address amount` separated by blanks. */
const splitBlank = (fields: string[]): string[] =>
  fields.length === 1 ? (fields[0] ?? "").trim().split(/\s+/) : fields;

/**
 * Reads `address,amount` lines (CSV or TXT) with papaparse, which detects the delimiter
 * (comma, semicolon, tab) and honours quoted fields. A header, blank lines and any row whose
 * first field is not an address are dropped; a missing amount is kept as "". Semicolon files
 * may write amounts with a decimal comma.
 */
export function parseWalletFile(text: string): FileWallet[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy" });
  const decimalComma = parsed.meta.delimiter === ";";
  const wallets: FileWallet[] = [];
  for (const row of parsed.data) {
    const [address = "", amount = ""] = splitBlank(row).map((field) => field.trim());
    if (!isAddress(address)) continue;
    wallets.push({ address, amount: decimalComma ? amount.replace(",", ".") : amount });
  }
  return wallets;
}
