import { addressOfKey } from "@bundler/chain";
import { draftInputSchema } from "@bundler/shared";
import { getAddress, type Hex } from "viem";
import type { z } from "zod";
import { BadRequestError } from "../../lib/errors.ts";
import { type KeyPurpose, normalizePrivateKey } from "../../lib/key-vault.ts";
import { FieldError } from "../../lib/parse-request.ts";
import type { StoredWalletConfig } from "./draft-presenter.ts";

export type ParsedDraftInput = z.output<typeof draftInputSchema>;

/** Splits input into what the row holds and the keys the vault holds; checks every key. */
export function splitDraftInput(input: ParsedDraftInput) {
  const keys: Array<{ privateKey: Hex; purpose: KeyPurpose }> = [];
  /** `at`: where the wallet is in the request, and its row in the wallet list. */
  const keyed = (
    wallet: { address: string; privateKey: string },
    purpose: KeyPurpose,
    label: string,
    at: { field: string; row?: number },
  ) => {
    let privateKey: Hex;
    try {
      privateKey = normalizePrivateKey(wallet.privateKey);
    } catch {
      throw new FieldError({
        error: `Invalid ${label} private key`,
        ...at,
        field: `${at.field}.privateKey`,
      });
    }
    const address = addressOfKey(privateKey);
    if (address.toLowerCase() !== wallet.address.toLowerCase())
      throw new FieldError({
        error: `The ${label} address ${wallet.address} does not match its private key`,
        ...at,
        field: `${at.field}.address`,
      });
    keys.push({ privateKey, purpose });
    return address;
  };
  const deployerAddress = input.deployerWallet
    ? keyed(input.deployerWallet, "deployer", "deployer", { field: "deployerWallet" })
    : null;
  const config = input.walletConfig ?? draftInputSchema.shape.walletConfig.unwrap().parse({});
  const seen = new Set<string>();
  const wallets = config.wallets.map((wallet, i) => {
    const at = { field: `walletConfig.wallets.${i}`, row: i + 1 };
    const address = keyed(wallet, "bundle", `wallet ${i + 1}`, at);
    if (seen.has(address))
      throw new FieldError({
        error: `Wallet ${i + 1} (${address}) is listed twice`,
        ...at,
        field: `${at.field}.address`,
      });
    seen.add(address);
    return {
      address,
      buyValue: wallet.buyValue,
      ...(wallet.tokenAmount !== undefined ? { tokenAmount: wallet.tokenAmount } : {}),
    };
  });
  const tipPayer = config.tipPayer
    ? keyed(config.tipPayer, "tip", "tip payer", { field: "walletConfig.tipPayer" })
    : undefined;
  if (config.delaySnipeAddress && !seen.has(getAddress(config.delaySnipeAddress)))
    throw new BadRequestError("Address must be one of the imported wallet addresses");
  const stored: StoredWalletConfig = { ...config, wallets, tipPayer };
  if (!tipPayer) delete stored.tipPayer;
  return { deployerAddress, walletConfig: stored, keys };
}
