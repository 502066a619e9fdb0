import {
  ChainError,
  getTokenHoldings,
  type PreparedSell,
  prepareEmpties,
  prepareSells,
  rpcBatch,
} from "@bundler/chain";
import type { SellTransaction } from "@bundler/shared";
import { type Address, formatEther, getAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { BadRequestError, ServiceUnavailableError } from "../../lib/errors.ts";
import type { KeyPurpose, KeyVault } from "../../lib/key-vault.ts";
import { isFinal, type TxRow } from "../transactions/transactions.repository.ts";
import type { TxIntent, TxManager } from "../transactions/tx-manager.ts";
import type { BundleRow } from "./bundles.repository.ts";
import { formatTokens, type SellSpec, sellAmounts } from "./sell-amounts.ts";
import { soldAmountOf } from "./sold-amount.ts";

/** How long an empty waits for its transfers to be mined before answering what it knows. */
const EMPTY_WAIT_MS = 30_000;

export interface SellOutcome {
  address: Address;
  /** The approval (when one went first) and the sale; or one failed entry. */
  transactions: SellTransaction[];
  sold: bigint;
}

export interface EmptyOutcome {
  wallet: Address;
  success: boolean;
  hash: string | null;
  amount: string;
  error: string | null;
}

type Step = "approve" | "sell";

const failed = (address: Address, error: string): SellOutcome => ({
  address,
  transactions: [{ hash: null, from: address, amount: "0", kind: "sell", status: "failed", error }],
  sold: 0n,
});

const reasonOf = (error: unknown): string =>
  error instanceof ChainError ? error.shortMessage : (error as Error).message;

/**
 * Sells and empties for the wallet manager, every transaction through the transaction manager:
 * keyed per wallet and request (a double click, a retry, or a crash between recording and
 * broadcasting answers the transactions already recorded, which the manager broadcasts and
 * reconciles), signed with explicit nonces and broadcast together in one batch, so a sell of many
 * wallets lands in one block.
 */
export class BundleTrades {
  constructor(
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly txm: TxManager | undefined,
  ) {}

  /**
   * Sells `spec` from each seller (in order): one outcome per seller. Throws 400 (nothing sent)
   * for a bad percent or an amount above a wallet's balance.
   */
  async sell(
    ownerId: string,
    bundle: BundleRow,
    sellers: Address[],
    purpose: KeyPurpose,
    spec: SellSpec,
    requestId: string | undefined,
  ): Promise<SellOutcome[]> {
    const { chain, txm, launchpad, trade } = this.trading();
    const token = getAddress(bundle.tokenAddress);
    const holdings = await getTokenHoldings(chain.client, {
      token,
      addresses: sellers,
      helper: trade.helper,
      spenders: [launchpad, trade.router],
    });
    const amounts = sellAmounts(spec, holdings.holdings);
    const { tags, nonces } = await this.tags(
      sellers,
      requestId,
      `${spec.amount}${spec.isPercentage ? "%" : "t"}`,
    );
    const keyOf = (address: Address, step: Step) =>
      `bundle-sell:${ownerId}:${token.toLowerCase()}:${address.toLowerCase()}:${tags.get(address)}:${step}`;

    const earlier = await txm.find(sellers.flatMap((a) => [keyOf(a, "approve"), keyOf(a, "sell")]));
    const byKey = new Map(earlier.map((row) => [row.key, row]));
    const outcomes = new Map<Address, SellOutcome>();
    for (const address of sellers) {
      const sale = byKey.get(keyOf(address, "sell"));
      if (sale) outcomes.set(address, replayedSell(byKey.get(keyOf(address, "approve")), sale));
    }
    for (const entry of amounts)
      if ("error" in entry && !outcomes.has(entry.address))
        outcomes.set(entry.address, failed(entry.address, entry.error));
    await this.refuseBusy(
      sellers.filter((a) => !outcomes.has(a)),
      nonces,
      outcomes,
      failed,
    );

    const toSell = amounts.flatMap((entry) =>
      "amount" in entry && !outcomes.has(entry.address) ? [entry] : [],
    );
    if (toSell.length > 0) {
      const prepared = await prepareSells(chain.client, {
        launchpad,
        ...trade,
        token,
        sellers: toSell,
        gasPrice: await txm.gasPrice(),
        holdings,
      });
      const accounts = await this.accounts(
        bundle,
        purpose,
        toSell.map((s) => s.address),
      );
      const intents: TxIntent[] = [];
      const sent: PreparedSell[] = [];
      for (const sell of prepared.sells) {
        const account = accounts.get(sell.address.toLowerCase());
        if ("error" in sell) outcomes.set(sell.address, failed(sell.address, reasonOf(sell.error)));
        else if (!account)
          outcomes.set(
            sell.address,
            failed(sell.address, `the key of wallet ${sell.address} is missing`),
          );
        else {
          sent.push(sell);
          const common = {
            ownerId,
            subject: token.toLowerCase(),
            account,
            gasPrice: prepared.gasPrice,
          };
          if (sell.approval)
            intents.push({
              ...common,
              key: keyOf(sell.address, "approve"),
              purpose: "bundle-approve",
              ...sell.approval.request,
              gas: sell.approval.gas,
              reason: `approve ${bundle.ticker} for sale`,
            });
          intents.push({
            ...common,
            key: keyOf(sell.address, "sell"),
            purpose: "bundle-sell",
            ...sell.sale.request,
            gas: sell.sale.gas,
            reason: `sell ${formatTokens(sell.quote.amountIn)} ${bundle.ticker}`,
          });
        }
      }
      const rows = new Map((await txm.send(intents)).map((row) => [row.key, row]));
      for (const sell of sent) {
        const approval = rows.get(keyOf(sell.address, "approve"));
        const sale = rows.get(keyOf(sell.address, "sell"));
        if (sale) outcomes.set(sell.address, replayedSell(approval, sale, sell.quote.amountIn));
      }
    }
    return sellers.map((a) => outcomes.get(a) ?? failed(a, "nothing was sent"));
  }

  /**
   * Every wallet's BNB minus the exact gas to `receiver`, then waits (up to 30 s) for the
   * transfers to be mined: success means the wallet holds 0 wei now.
   */
  async empty(
    ownerId: string,
    bundle: BundleRow,
    wallets: Address[],
    receiver: Address,
    requestId: string | undefined,
  ): Promise<EmptyOutcome[]> {
    const { chain, txm } = this.trading();
    const to = getAddress(receiver);
    if (wallets.some((w) => w.toLowerCase() === to.toLowerCase()))
      throw new BadRequestError("The receiver cannot be one of the wallets being emptied");
    const token = bundle.tokenAddress.toLowerCase();
    const { tags, nonces } = await this.tags(wallets, requestId, to.toLowerCase());
    const keyOf = (address: Address) =>
      `bundle-empty:${ownerId}:${token}:${address.toLowerCase()}:${tags.get(address)}`;
    const fail = (wallet: Address, error: string): EmptyOutcome => ({
      wallet,
      success: false,
      hash: null,
      amount: "0",
      error,
    });

    const earlier = new Set((await txm.find(wallets.map(keyOf))).map((row) => row.key));
    const outcomes = new Map<Address, EmptyOutcome>();
    await this.refuseBusy(
      wallets.filter((w) => !earlier.has(keyOf(w))),
      nonces,
      outcomes,
      fail,
    );
    const toEmpty = wallets.filter((w) => !earlier.has(keyOf(w)) && !outcomes.has(w));
    const intents: TxIntent[] = [];
    if (toEmpty.length > 0) {
      const [prepared, accounts] = await Promise.all([
        txm
          .gasPrice()
          .then((gasPrice) => prepareEmpties(chain.client, { from: toEmpty, to, gasPrice })),
        this.accounts(bundle, "bundle", toEmpty),
      ]);
      for (const empty of prepared) {
        const account = accounts.get(empty.from.toLowerCase());
        if ("error" in empty) outcomes.set(empty.from, fail(empty.from, empty.error.shortMessage));
        else if (!account)
          outcomes.set(empty.from, fail(empty.from, `the key of wallet ${empty.from} is missing`));
        else
          intents.push({
            key: keyOf(empty.from),
            purpose: "bundle-empty",
            ownerId,
            subject: token,
            account,
            ...empty.request,
            gas: empty.gas,
            gasPrice: empty.gasPrice,
            reason: `empty to ${to}`,
          });
      }
      await txm.send(intents);
    }
    const keys = [...earlier, ...intents.map((i) => i.key)];
    const rows = new Map(
      (
        await txm
          .waitFinal(keys, { pollMs: 250, timeoutMs: EMPTY_WAIT_MS })
          .catch(() => txm.find(keys))
      ).map((row) => [row.key, row]),
    );
    return wallets.map((wallet) => {
      const row = rows.get(keyOf(wallet));
      if (!row) return outcomes.get(wallet) ?? fail(wallet, "nothing was sent");
      return {
        wallet,
        success: row.status === "mined",
        hash: row.txHash,
        amount: formatEther(BigInt(row.value)),
        error: emptyError(row),
      };
    });
  }

  private trading() {
    const chain = requireChain(this.chain);
    if (!this.txm) throw new ServiceUnavailableError("chain unavailable");
    if (!chain.launchpad || !chain.trade)
      throw new ServiceUnavailableError(`trading is not configured for ${chain.profile.name}`);
    return { chain, txm: this.txm, launchpad: chain.launchpad, trade: chain.trade };
  }

  /**
   * Each wallet's mined nonce, and what makes this request's keys: the caller's request id, or
   * the mined nonce with what is asked (a second identical request before the first is mined
   * gets the same keys, so it answers the first's transactions).
   */
  private async tags(
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
   * A wallet with a transaction still in flight (recorded, not final, its nonce not yet used on
   * the chain) is not sent another: its balances are about to move.
   */
  private async refuseBusy<T>(
    wallets: Address[],
    nonces: Map<Address, number>,
    outcomes: Map<Address, T>,
    fail: (wallet: Address, error: string) => T,
  ): Promise<void> {
    if (wallets.length === 0 || !this.txm) return;
    const open = await this.txm.openFrom(wallets);
    for (const wallet of wallets) {
      const busy = open.find(
        (row) =>
          row.from.toLowerCase() === wallet.toLowerCase() && row.nonce >= (nonces.get(wallet) ?? 0),
      );
      if (busy)
        outcomes.set(
          wallet,
          fail(
            wallet,
            `wallet ${wallet} has a transaction in flight (${busy.txHash}): try again once it is mined`,
          ),
        );
    }
  }

  /** The stored keys of `addresses` (of this bundle's draft), by lowercase address. */
  private async accounts(bundle: BundleRow, purpose: KeyPurpose, addresses: Address[]) {
    const wanted = new Set(addresses.map((a) => a.toLowerCase()));
    const keys = await this.vault.forDraft(bundle.draftId, [purpose]);
    return new Map(
      keys
        .filter((k) => wanted.has(k.address.toLowerCase()))
        .map((k) => [k.address.toLowerCase(), privateKeyToAccount(k.privateKey)]),
    );
  }
}

/** A sell recorded by the manager (now or by an earlier identical request), as entries. */
const replayedSell = (approval: TxRow | undefined, sale: TxRow, amount?: bigint): SellOutcome => {
  const from = getAddress(sale.from);
  const sold = amount ?? soldAmountOf(sale.rawTx as Hex);
  const entry = (row: TxRow, kind: Step, units: bigint): SellTransaction => ({
    hash: row.txHash,
    from,
    amount: formatTokens(units),
    kind,
    status: "pending",
    error: null,
  });
  return {
    address: from,
    transactions: [
      ...(approval ? [entry(approval, "approve", 0n)] : []),
      entry(sale, "sell", sold),
    ],
    sold,
  };
};

/** Why an empty's transfer did not (yet) empty the wallet; null once mined. */
const emptyError = (row: TxRow): string | null => {
  if (row.status === "mined") return null;
  if (!isFinal(row.status))
    return `sent but not mined yet (${row.txHash}): check its status before emptying again`;
  return `the transfer was ${row.status}: ${row.error ?? "no reason given"}`;
};
