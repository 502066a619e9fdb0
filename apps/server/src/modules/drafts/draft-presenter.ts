import type { Draft, DraftStatus, TokenInfo } from "@bundler/shared";
import { formatEther } from "viem";
import type { KeyPurpose } from "../../lib/key-vault.ts";
import type { DraftRow, PaymentRow, SendRow } from "./drafts.repository.ts";
import type { StoredWalletConfig } from "./drafts.service.ts";

/** A draft row in the API's shape, with its owner's keys, open payment and refunds. */
export const toDraft = (
  row: DraftRow,
  config: StoredWalletConfig,
  keyOf: (purpose: KeyPurpose, address: string) => string,
  payment: PaymentRow | undefined,
  refunds: SendRow[],
): Draft => {
  const { tipPayer, wallets, ...rest } = config;
  const showPayment = payment && row.status !== "draft";
  return {
    _id: row.id,
    status: row.status as DraftStatus,
    tokenInfo: row.tokenInfo as TokenInfo,
    deployerWallet: row.deployerAddress
      ? { address: row.deployerAddress, privateKey: keyOf("deployer", row.deployerAddress) }
      : null,
    walletConfig: {
      ...rest,
      wallets: wallets.map((w) => ({ ...w, privateKey: keyOf("bundle", w.address) })),
      ...(tipPayer ? { tipPayer: { address: tipPayer, privateKey: keyOf("tip", tipPayer) } } : {}),
    },
    paymentAddress: showPayment ? payment.address : null,
    paymentAmount: showPayment ? formatEther(BigInt(payment.amount)) : null,
    paymentExpiresAt: showPayment ? payment.expiresAt.toISOString() : null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    refunds: refunds.map((send) => ({
      to: send.to,
      amount: formatEther(BigInt(send.value)),
      reason: send.reason,
      txHash: send.status === "signed" ? null : send.txHash,
      status:
        send.status === "confirmed" ? "sent" : send.status === "failed" ? "failed" : "pending",
    })),
    launch: (row.launch as Draft["launch"]) ?? null,
  };
};
