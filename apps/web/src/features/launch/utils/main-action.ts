import type { DraftStatus } from "@bundler/shared";
import { toWei } from "../../../lib/bnb.ts";
import type { BundleWallet } from "./launch-form.ts";

export type PrimaryAction = "generate-wallets" | "generate-amounts" | "save";
export type SecondaryAction = "missing-funds" | "pay" | "execute" | null;

export const PRIMARY_LABELS: Record<PrimaryAction, string> = {
  "generate-wallets": "Generate Wallets",
  "generate-amounts": "Generate Amounts",
  save: "Save as Draft",
};

const isZero = (value: string) => (toWei(value) ?? 0n) === 0n;

/** Any wallet whose known balance is below its buy value (unknown balances count as missing). */
export function hasMissingFunds(
  wallets: readonly BundleWallet[],
  balances: ReadonlyMap<string, string>,
): boolean {
  return wallets.some((wallet) => {
    const balance = toWei(balances.get(wallet.address.toLowerCase()));
    return balance === null || balance < (toWei(wallet.buyValue) ?? 0n);
  });
}

/**
 * SPEC §2 main button: generate wallets, then amounts, then save plus disperser or pay. A paid
 * draft offers "Execute Launch" (SPEC §2's confirm bundle execution and progress dialog, run in
 * place); a launch running or done, nothing more.
 */
export function mainActions(input: {
  wallets: readonly BundleWallet[];
  missingFunds: boolean;
  status: DraftStatus | null;
}): { primary: PrimaryAction; secondary: SecondaryAction } {
  if (input.wallets.length === 0) return { primary: "generate-wallets", secondary: null };
  if (input.wallets.every((wallet) => isZero(wallet.buyValue)))
    return { primary: "generate-amounts", secondary: null };
  if (input.missingFunds) return { primary: "save", secondary: "missing-funds" };
  if (input.status === "paid") return { primary: "save", secondary: "execute" };
  const launched = input.status === "executing" || input.status === "executed";
  return { primary: "save", secondary: launched ? null : "pay" };
}
