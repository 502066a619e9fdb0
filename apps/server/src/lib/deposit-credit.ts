/**
 * How money arriving at a watched address (a payment's, a dispersal's receiver) is counted
 * toward the amount it waits for: one rule for every watcher. The block scan records each plain
 * transfer with the part of it that goes back (`refundable`); a contract's internal transfer is
 * not a transaction of any block, so only the balance shows it.
 */

/** A plain transfer the scan recorded at the address. */
export interface SeenDeposit {
  txHash: string;
  value: string;
  refundable: string;
  blockNumber: bigint;
}

/** A credit: the block it was judged at, and each recorded deposit's part that goes back. */
export interface Credit {
  atBlock: bigint;
  refundable: Array<{ txHash: string; refundable: string }>;
}

/**
 * The part of a newly seen transfer that counts toward `amount`: none when it came late or in a
 * block after the credit (the amount was complete by then), else what the amount still lacks.
 */
export const keptPart = ({
  amount,
  earlier,
  value,
  late,
  blockNumber,
  creditedAt,
}: {
  amount: bigint;
  earlier: readonly SeenDeposit[];
  value: bigint;
  late: boolean;
  blockNumber: bigint;
  creditedAt: bigint | null;
}): bigint => {
  if (late || (creditedAt !== null && blockNumber > creditedAt)) return 0n;
  const counted = earlier.reduce((sum, d) => sum + BigInt(d.value) - BigInt(d.refundable), 0n);
  const lacking = amount - counted;
  return lacking <= 0n ? 0n : lacking < value ? lacking : value;
};

/**
 * Whether the amount is met. By the recorded deposits alone (judged at the last block read);
 * or, while the window is open and every block up to the head is read, by the balance at the
 * head: then the money the scan did not see counts first, and the recorded deposits keep only
 * what the amount still lacks, the rest going back to their senders. Null while it is not met.
 */
export const creditOf = ({
  amount,
  deposits,
  balance,
  head,
  scanned,
  windowOpen,
}: {
  amount: bigint;
  deposits: readonly SeenDeposit[];
  /** The address's balance at `head`. */
  balance: bigint;
  head: bigint;
  /** The first block the scan has not read. */
  scanned: bigint;
  windowOpen: boolean;
}): Credit | null => {
  const kept = deposits.reduce((sum, d) => sum + BigInt(d.value) - BigInt(d.refundable), 0n);
  const owedBack = deposits.reduce((sum, d) => sum + BigInt(d.refundable), 0n);
  if (balance - owedBack < amount) return null;
  if (kept >= amount) return { atBlock: scanned - 1n, refundable: [] };
  if (!windowOpen || scanned <= head) return null;
  const seen = deposits.reduce((sum, d) => sum + BigInt(d.value), 0n);
  const unseen = balance > seen ? balance - seen : 0n;
  let lacking = amount > unseen ? amount - unseen : 0n;
  const byBlock = [...deposits].sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : 1));
  return {
    atBlock: head,
    refundable: byBlock.map((deposit) => {
      const value = BigInt(deposit.value);
      const wasKept = value - BigInt(deposit.refundable);
      const keep = wasKept < lacking ? wasKept : lacking;
      lacking -= keep;
      return { txHash: deposit.txHash, refundable: (value - keep).toString() };
    }),
  };
};

/** The recorded deposits as a credit left them (what a pass after it must go on with). */
export const applyCredit = <D extends SeenDeposit>(deposits: D[], credit: Credit): void => {
  const refundable = new Map(credit.refundable.map((r) => [r.txHash, r.refundable]));
  for (const deposit of deposits)
    deposit.refundable = refundable.get(deposit.txHash) ?? deposit.refundable;
};
