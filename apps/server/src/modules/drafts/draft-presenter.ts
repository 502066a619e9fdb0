import {
  type Draft,
  type DraftStatus,
  type DraftSummary,
  draftLogoPath,
  type TokenInfo,
  type WalletConfig,
} from "@bundler/shared";
import { type Address, formatEther } from "viem";
import type { KeyPurpose } from "../../lib/key-vault.ts";
import type { DraftRow, PaymentRow } from "./drafts.repository.ts";

/** walletConfig as stored: addresses only, the keys live in wallet_keys. */
export interface StoredWalletConfig extends Omit<WalletConfig, "wallets" | "tipPayer"> {
  wallets: Array<{ address: Address; buyValue: string; tokenAmount?: string | undefined }>;
  tipPayer?: Address | undefined;
}

/**
 * What a draft and its summary share: status, open payment, expiry, refunds, launch, and why it
 * cannot be paid for or launched yet.
 */
const common = (
  row: DraftRow,
  payment: PaymentRow | undefined,
  refunds: Draft["refunds"],
  launchProblem: string | null,
) => {
  const showPayment = payment && row.status !== "draft";
  return {
    _id: row.id,
    status: row.status as DraftStatus,
    paymentAddress: showPayment ? payment.address : null,
    paymentAmount: showPayment ? formatEther(BigInt(payment.amount)) : null,
    paymentExpiresAt: showPayment ? payment.expiresAt.toISOString() : null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    refunds,
    launch: (row.launch as Draft["launch"]) ?? null,
    launchProblem,
  };
};

/** A draft row in the API's shape, with its owner's keys, open payment and refunds. */
export const toDraft = (
  row: DraftRow,
  config: StoredWalletConfig,
  keyOf: (purpose: KeyPurpose, address: string) => string,
  payment: PaymentRow | undefined,
  refunds: Draft["refunds"],
  launchProblem: string | null,
): Draft => {
  const { tipPayer, wallets, ...rest } = config;
  return {
    ...common(row, payment, refunds, launchProblem),
    tokenInfo: row.tokenInfo as TokenInfo,
    deployerWallet: row.deployerAddress
      ? { address: row.deployerAddress, privateKey: keyOf("deployer", row.deployerAddress) }
      : null,
    walletConfig: {
      ...rest,
      wallets: wallets.map((w) => ({ ...w, privateKey: keyOf("bundle", w.address) })),
      ...(tipPayer ? { tipPayer: { address: tipPayer, privateKey: keyOf("tip", tipPayer) } } : {}),
    },
  };
};

/** A draft row as the list shows it: addresses without keys, the logo by its URL. */
export const toDraftSummary = (
  row: DraftRow,
  payment: PaymentRow | undefined,
  refunds: Draft["refunds"],
  launchProblem: string | null,
): DraftSummary => {
  const { image: _inline, ...info } = row.tokenInfo as TokenInfo;
  const { tipPayer, wallets, ...config } = row.walletConfig as StoredWalletConfig;
  return {
    ...common(row, payment, refunds, launchProblem),
    tokenInfo: { ...info, imageUrl: row.logoHash ? draftLogoPath(row.logoHash) : null },
    deployerWallet: row.deployerAddress ? { address: row.deployerAddress } : null,
    walletConfig: {
      ...config,
      // Field by field: nothing but these ever leaves in a list.
      wallets: wallets.map(({ address, buyValue, tokenAmount }) => ({
        address,
        buyValue,
        ...(tokenAmount !== undefined ? { tokenAmount } : {}),
      })),
      ...(tipPayer ? { tipPayer: { address: tipPayer } } : {}),
    },
  };
};
