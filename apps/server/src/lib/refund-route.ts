import type { Address } from "viem";

/**
 * Where money owed back to a sender goes when the sender is one of our own wallets (a payment
 * address, a dispersal's receiver or hop wallet): to the person behind that wallet's job, or
 * nowhere (held where it is, and the owner told why). Never back into our own address, where
 * nothing would watch it and two of our addresses could bounce it to each other.
 */
export type RefundDestination = { to: Address; note: string } | { hold: string };

/** Answers an entry only for senders that are our own wallets; others are refunded as usual. */
export type RefundRoute = (senders: string[]) => Promise<Map<string, RefundDestination>>;

/** No sender is ours (tests that exercise nothing else). */
export const refundToSender: RefundRoute = async () => new Map();
