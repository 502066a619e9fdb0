import { type Address, getAddress, type PublicClient } from "viem";

/**
 * One trial's books, read from the chain: the balances of every address the trial may touch
 * before the work starts and after it finished, the gas of every transaction those addresses
 * sent in between (receipts' gasUsed × effectiveGasPrice), and the transactions themselves.
 *
 * Balances + gas before = after over a closed set: the trial's declared addresses (user
 * wallets, the server's generated wallets it lists, treasury, payers, destinations), the
 * market's contracts and the builder's tip address. A wallet the server generated along the way
 * (a dispersal's hop, say) joins the set when money reaches it, starting from 0 (its key did not
 * exist before), and must be empty at the end unless the trial declares it: wei parked where
 * nobody asked for it is unaccounted.
 */
export interface Ledger {
  /** Wei that left or entered the set other than as gas, plus wei left in undeclared wallets. */
  unaccounted: bigint;
  /** Transactions sent from the set that repeat an earlier one (same from, to, value, data). */
  repeated: number;
  /** Every transaction mined in the trial's blocks that the set sent. */
  txs: Array<{ from: Address; to: Address | null; value: bigint; input: string }>;
  /** The balance change of each address of the set. */
  delta(address: string): bigint;
  detail: string;
}

export interface Books {
  close(declared: readonly string[]): Promise<Ledger>;
}

const normal = (address: string) => getAddress(address);

/** Opens the books: balances of `declared` (and `closedWith`: contracts, tips) now. */
export const openBooks = async (
  client: () => PublicClient,
  declared: readonly string[],
  closedWith: readonly string[],
): Promise<Books> => {
  const known = new Set([...declared, ...closedWith].map(normal));
  const fromBlock = await client().getBlockNumber();
  const before = new Map<Address, bigint>();
  for (const address of known)
    before.set(address, await client().getBalance({ address, blockNumber: fromBlock }));

  return {
    async close(declaredAfter) {
      const toBlock = await client().getBlockNumber();
      const set = new Set(known);
      const declaredSet = new Set([...declared, ...declaredAfter].map(normal));
      for (const address of declaredSet) set.add(address);
      const mined: Ledger["txs"] = [];
      const hashes: Array<{ hash: `0x${string}`; from: Address }> = [];
      const blocks = [];
      for (let n = fromBlock + 1n; n <= toBlock; n++)
        blocks.push(await client().getBlock({ blockNumber: n, includeTransactions: true }));
      // Money reaching a new wallet from the set pulls it in (hops of hops too): to a fixpoint.
      let grew = true;
      while (grew) {
        grew = false;
        for (const block of blocks)
          for (const tx of block.transactions)
            if (set.has(normal(tx.from)) && tx.to && tx.value > 0n && !set.has(normal(tx.to))) {
              set.add(normal(tx.to));
              grew = true;
            }
      }
      for (const block of blocks)
        for (const tx of block.transactions)
          if (set.has(normal(tx.from))) {
            mined.push({
              from: normal(tx.from),
              to: tx.to ? normal(tx.to) : null,
              value: tx.value,
              input: tx.input,
            });
            hashes.push({ hash: tx.hash, from: normal(tx.from) });
          }
      let gas = 0n;
      for (const { hash } of hashes) {
        const receipt = await client().getTransactionReceipt({ hash });
        gas += receipt.gasUsed * receipt.effectiveGasPrice;
      }
      const after = new Map<Address, bigint>();
      for (const address of set)
        after.set(address, await client().getBalance({ address, blockNumber: toBlock }));
      const sum = (m: Map<Address, bigint>) => [...m.values()].reduce((a, b) => a + b, 0n);
      const residual = sum(before) - sum(after) - gas;
      let parked = 0n;
      const lines: string[] = [];
      for (const address of set) {
        const held = after.get(address) ?? 0n;
        if (!known.has(address) && !declaredSet.has(address) && held !== 0n) {
          parked += held;
          lines.push(`${address} holds ${held} wei and was never declared`);
        }
      }
      const seen = new Map<string, number>();
      let repeated = 0;
      for (const tx of mined) {
        const key = `${tx.from}|${tx.to}|${tx.value}|${tx.input}`;
        const count = (seen.get(key) ?? 0) + 1;
        seen.set(key, count);
        if (count > 1) {
          repeated += 1;
          lines.push(`repeated: ${tx.from} → ${tx.to} ${tx.value} wei (${tx.input.slice(0, 10)})`);
        }
      }
      if (residual !== 0n)
        lines.push(`before − after − gas = ${residual} wei over ${set.size} addresses`);
      return {
        unaccounted: (residual < 0n ? -residual : residual) + parked,
        repeated,
        txs: mined,
        delta: (address) =>
          (after.get(normal(address)) ?? 0n) - (before.get(normal(address)) ?? 0n),
        detail: lines.join("\n"),
      };
    },
  };
};
