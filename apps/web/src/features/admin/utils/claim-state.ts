import type { AdminClaim } from "@bundler/shared";

/** While a claim's payout is on its way, screens showing it look again this often. */
export const PAYOUT_POLL_MS = 5000;

/** A pending claim whose payout was sent and has neither failed nor been mined yet. */
export const isPayoutOnItsWay = (claim: AdminClaim): boolean =>
  claim.status === "pending" && claim.txHash !== null && claim.reason === null;

/** A query's refetch interval: every 5 s while any of `claims` has a payout on its way. */
export const payoutPollInterval = (claims: AdminClaim[] | undefined): number | false =>
  claims?.some(isPayoutOnItsWay) ? PAYOUT_POLL_MS : false;
