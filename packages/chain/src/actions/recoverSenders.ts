import { setImmediate as turn } from "node:timers/promises";
import {
  type Address,
  type Hex,
  recoverTransactionAddress,
  type TransactionSerialized,
} from "viem";

/** A transaction of `recoverSenders`' list that is not a signed one: `index` says which. */
export class NotSignedError extends Error {
  constructor(
    readonly index: number,
    cause: unknown,
  ) {
    super(`txs[${index}] is not a signed transaction`, { cause });
  }
}

/**
 * The sender of each signed transaction, in order. Recovering one is 1-3 ms of pure CPU
 * (secp256k1 in JavaScript); a bundle's fifty at once held a server's event loop for 30-50 ms,
 * so they are recovered one at a time, with a turn of the loop between them: requests and
 * timers get in after each. A transaction that is not a signed one rejects (NotSignedError).
 *
 * @example
 * const [from] = await recoverSenders([raw]);
 */
export async function recoverSenders(raws: readonly Hex[]): Promise<Address[]> {
  const senders: Address[] = [];
  for (const [index, raw] of raws.entries()) {
    if (index > 0) await turn();
    try {
      senders.push(
        await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized }),
      );
    } catch (cause) {
      throw new NotSignedError(index, cause);
    }
  }
  return senders;
}
