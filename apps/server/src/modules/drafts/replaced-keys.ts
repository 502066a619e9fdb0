import { getBalances, rpcBatch } from "@bundler/chain";
import { type Address, getAddress } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { KeyPurpose } from "../../lib/key-vault.ts";
import type { DraftsRepository } from "./drafts.repository.ts";

export interface KeyRef {
  address: string;
  purpose: KeyPurpose;
}

/** A key's identity in a draft: its purpose and address. */
export const refOf = (key: KeyRef) => `${key.purpose}:${key.address.toLowerCase()}`;

/** Of `held`, the keys that `kept` does not name (once each). */
export const replacedKeys = (held: readonly KeyRef[], kept: readonly KeyRef[]): KeyRef[] => {
  const named = new Set(kept.map(refOf));
  const seen = new Set<string>();
  return held.filter((key) => {
    const ref = refOf(key);
    if (named.has(ref) || seen.has(ref)) return false;
    seen.add(ref);
    return true;
  });
};

/**
 * Of the keys an update replaced, those safe to delete: an address that holds BNB or any of the
 * owner's launched tokens, has sent a transaction (its nonce), or that a transaction, dispersal
 * or deposit the server knows of ever touched, keeps its key. Unsure (no chain, a read that
 * fails) keeps every key.
 */
export async function forgettableKeys(
  candidates: readonly KeyRef[],
  ownerId: string,
  repository: Pick<DraftsRepository, "everUsed" | "ownerTokens">,
  chain: ChainContext | undefined,
): Promise<KeyRef[]> {
  if (candidates.length === 0 || !chain) return [];
  try {
    const addresses = [...new Set(candidates.map((k) => getAddress(k.address)))];
    const keep = await repository.everUsed(addresses);
    const unused = addresses.filter((a) => !keep.has(a.toLowerCase()));
    if (unused.length === 0) return [];
    const [balances, nonces, tokens] = await Promise.all([
      getBalances(chain.client, { addresses: unused }),
      rpcBatch<string>(
        chain.rpcUrl,
        unused.map((a) => ({ method: "eth_getTransactionCount", params: [a, "latest"] })),
      ),
      repository.ownerTokens(ownerId),
    ]);
    for (const [i, address] of unused.entries()) {
      const nonce = nonces[i]?.result;
      if (nonce === undefined) throw new Error(`no nonce for ${address}`);
      if ((balances[i]?.bnb ?? 0n) > 0n || BigInt(nonce) > 0n) keep.add(address.toLowerCase());
    }
    const left = unused.filter((a) => !keep.has(a.toLowerCase()));
    for (const token of tokens) {
      if (left.length === 0) break;
      const held = await getBalances(chain.client, {
        addresses: left as Address[],
        token: getAddress(token),
      });
      for (const entry of held) if (entry.token > 0n) keep.add(entry.address.toLowerCase());
    }
    return candidates.filter((key) => !keep.has(key.address.toLowerCase()));
  } catch {
    return [];
  }
}
