import type { AdminClaim, Claim } from "@bundler/shared";
import { formatEther } from "viem";
import type { ClaimRow, ClaimWithOwner } from "./referral.repository.ts";

/** A claim as its owner sees it (SPEC §3 Claim): BNB on the wire, wei inside. */
export const presentClaim = (row: ClaimRow): Claim => ({
  id: row.id,
  amount: formatEther(BigInt(row.amount)),
  status: row.status,
  requestedAt: row.requestedAt.toISOString(),
  receivingAddress: row.receivingAddress,
  txHash: row.txHash,
  reason: row.reason,
  decidedAt: row.decidedAt?.toISOString() ?? null,
});

/** A claim as admins see it: whose it is. */
export const presentAdminClaim = (row: ClaimWithOwner): AdminClaim => ({
  ...presentClaim(row),
  userId: row.userId,
  keyPrefix: row.keyPrefix,
});
