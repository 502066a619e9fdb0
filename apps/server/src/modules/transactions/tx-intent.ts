import type { Address, Hex, LocalAccount } from "viem";

/** What a transaction is for; the owner sees it, and `npm run` reports count by it. */
export type TxPurpose =
  | "payment-refund"
  | "payment-sweep"
  | "dispersal-hop"
  | "dispersal-return"
  | "dispersal-refund"
  | "delayed-buy"
  | "launch"
  | "bundle-approve"
  | "bundle-sell"
  | "bundle-empty"
  | "bumper-trade"
  | "bumper-move"
  | "referral-payout"
  | "faucet";

/** One transaction a caller wants sent, exactly once per `key`. */
export interface TxIntent {
  /** Idempotency key: sending the same key again answers the first transaction, whatever it became. */
  key: string;
  purpose: TxPurpose;
  ownerId?: string | null;
  subject?: string | null;
  account: LocalAccount;
  to: Address;
  value: bigint;
  data?: Hex;
  /** 21,000 for a plain transfer. */
  gas: bigint;
  /** Defaults to the node's price, at least the profile's floor. */
  gasPrice?: bigint;
  reason?: string | null;
  /**
   * The key of an earlier transaction this one waits for (the one that funds its sender): it
   * is signed and recorded now, and broadcast as soon as that one is mined, by the reconcile
   * that sees it mined, with no signing left on that path. If that one ends any other way,
   * this one is dropped unless the node holds it.
   */
  after?: string;
  /**
   * The key of the earlier attempt this one sends again (a refund or a payout whose transfer
   * was dropped or replaced): the two must never both land. Refused while that one is open or
   * once it landed; while its nonce is unused this one takes that very nonce, so that only one
   * of them can ever be mined.
   */
  retries?: string;
}

/**
 * A retry (`retries`) that may not be sent now: its earlier attempt is on its way or landed,
 * or another transaction holds that attempt's nonce. Nothing was recorded.
 */
export class RetryRefused extends Error {}

/** A signed transaction of a bundle: recorded before the bundle goes out, never broadcast. */
export interface BundleTx {
  key: string;
  purpose: TxPurpose;
  ownerId?: string | null;
  subject?: string | null;
  raw: Hex;
  reason?: string | null;
}

/** What makes a wallet busy for `sendUnlessBusy`. */
export interface BusyGuard {
  /** This request's own keys: an identical request recording them right now is not "busy". */
  ownKeys: Set<string>;
  /** Each sender's mined nonce: an open transaction below it has landed already. */
  minedNonces: Map<Address, number>;
}
