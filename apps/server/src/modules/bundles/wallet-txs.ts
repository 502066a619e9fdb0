import { keyAccount, rpcBatch } from "@bundler/chain";
import type { Address, Hex } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { ServiceUnavailableError } from "../../lib/errors.ts";
import type { KeyPurpose, KeyVault } from "../../lib/key-vault.ts";
import type { BuilderSends } from "../builders/builders.service.ts";
import { isFinal, type TxRow } from "../transactions/transactions.repository.ts";
import type { TxManager } from "../transactions/tx-manager.ts";

/** Whose wallets a sell or an empty moves: a launch's (keys by its draft) or a bumper's. */
export interface TradeTarget {
  tokenAddress: string;
  ticker: string;
  draftId: string | null;
}

/**
 * What sells and empties share: the chain and the transaction manager they go through, each
 * wallet's mined nonce and the request's idempotency keys, the refusal of a wallet with a
 * transaction in flight, and the bundle's stored keys.
 */
export class WalletTxs {
  constructor(
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly txm: TxManager | undefined,
    /** Where each sell bundle's builder answers are recorded. */
    private readonly sends?: BuilderSends,
  ) {}

  trading() {
    const chain = requireChain(this.chain);
    if (!this.txm) throw new ServiceUnavailableError("chain unavailable");
    if (!chain.launchpad || !chain.trade)
      throw new ServiceUnavailableError(`trading is not configured for ${chain.profile.name}`);
    return {
      chain,
      txm: this.txm,
      launchpad: chain.launchpad,
      trade: chain.trade,
      sends: this.sends,
    };
  }

  /**
   * Each wallet's mined nonce, and what makes this request's keys: the caller's request id, or
   * the mined nonce with what is asked (a second identical request before the first is mined
   * gets the same keys, so it answers the first's transactions).
   */
  async tags(
    wallets: Address[],
    requestId: string | undefined,
    what: string,
  ): Promise<{ tags: Map<Address, string>; nonces: Map<Address, number> }> {
    const chain = requireChain(this.chain);
    const answers = await rpcBatch<Hex>(
      chain.rpcUrl,
      wallets.map((w) => ({ method: "eth_getTransactionCount", params: [w, "latest"] })),
    );
    const nonces = new Map(
      wallets.map((w, i) => {
        const nonce = answers[i]?.result;
        if (!nonce) throw new ServiceUnavailableError("chain unavailable: could not read nonces");
        return [w, Number(BigInt(nonce))];
      }),
    );
    const tags = new Map(
      wallets.map((w) => [w, requestId ? `r:${requestId}` : `n${nonces.get(w)}:${what}`]),
    );
    return { tags, nonces };
  }

  /**
   * Why a wallet was not sent another transaction: one of another request is in flight (a
   * bundle's until it lands or its window passes).
   */
  static busyError(
    wallet: Address,
    row: Pick<TxRow, "txHash" | "status"> & Partial<Pick<TxRow, "validUntilBlock">>,
  ): string {
    if (isFinal(row.status))
      return `wallet ${wallet} changed meanwhile (${row.txHash} landed): try again`;
    if (row.validUntilBlock != null)
      return `wallet ${wallet} has a transaction in a bundle not settled yet (${row.txHash}): try again in a few blocks (it lands or is dropped by block ${row.validUntilBlock})`;
    return `wallet ${wallet} has a transaction in flight (${row.txHash}): try again once it is mined`;
  }

  /**
   * The stored keys of `addresses`, by lowercase address: a launch's (of its draft, of any of
   * `purpose`), or, for a target without a draft (a bumper's wallets), the platform's keys of
   * the (first) purpose.
   */
  async accounts(
    target: TradeTarget,
    purpose: KeyPurpose | readonly KeyPurpose[],
    addresses: Address[],
  ) {
    const wanted = new Set(addresses.map((a) => a.toLowerCase()));
    const purposes = [purpose].flat();
    const keys = target.draftId
      ? await this.vault.forDraft(target.draftId, purposes)
      : [...(await this.vault.findMany(addresses, purposes[0] as KeyPurpose))].map(
          ([address, privateKey]) => ({
            address,
            privateKey,
          }),
        );
    return new Map(
      keys
        .filter((k) => wanted.has(k.address.toLowerCase()))
        .map((k) => [k.address.toLowerCase(), keyAccount(k.privateKey, k.address as Address)]),
    );
  }
}
