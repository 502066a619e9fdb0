import type { Address, Client, Hex } from "viem";
import { InsufficientFundsError } from "../errors.ts";
import { getBalances } from "./getBalances.ts";
import { rpcBatch } from "./rpcBatch.ts";

/**
 * Throws InsufficientFundsError naming every address that holds less than it needs, with its
 * shortfall (the first such address as its `address`); needs of an address listed twice add
 * up. One multicall.
 */
export const checkFunds = async (
  client: Client,
  needs: ReadonlyArray<{ address: Address; need: bigint }>,
): Promise<void> => {
  const total = new Map<string, { address: Address; need: bigint }>();
  for (const { address, need } of needs) {
    const entry = total.get(address.toLowerCase());
    if (entry) entry.need += need;
    else total.set(address.toLowerCase(), { address, need });
  }
  const wanted = [...total.values()];
  const balances = await getBalances(client, { addresses: wanted.map((n) => n.address) });
  const short = wanted.flatMap(({ address, need }, i) => {
    const have = balances[i]?.bnb ?? 0n;
    return have < need ? [{ address, shortfall: need - have }] : [];
  });
  const [first, ...others] = short;
  if (first) throw new InsufficientFundsError(first.address, first.shortfall, others);
};

/** Each distinct address's pending nonce, in one batched request. */
export const pendingNonces = async (
  rpcUrl: string,
  addresses: readonly Address[],
): Promise<Map<string, number>> => {
  const unique = [...new Set(addresses.map((address) => address.toLowerCase()))];
  const answers = await rpcBatch<Hex>(
    rpcUrl,
    unique.map((address) => ({ method: "eth_getTransactionCount", params: [address, "pending"] })),
  );
  return new Map(
    unique.map((address, i) => {
      const answer = answers[i];
      if (!answer?.result) throw new Error(`nonce of ${address}: ${answer?.error?.message}`);
      return [address, Number(BigInt(answer.result))];
    }),
  );
};
