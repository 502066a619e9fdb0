import { ChainError, getTokenHoldings, type PreparedSell, prepareSells } from "@bundler/chain";
import type { SellTransaction } from "@bundler/shared";
import { type Address, getAddress, type Hex } from "viem";
import type { KeyPurpose } from "../../lib/key-vault.ts";
import type { TxRow } from "../transactions/transactions.repository.ts";
import type { TxIntent } from "../transactions/tx-manager.ts";
import { formatTokens, type SellSpec, sellAmounts } from "./sell-amounts.ts";
import { soldAmountOf } from "./sold-amount.ts";
import { type TradeTarget, WalletTxs } from "./wallet-txs.ts";

export interface SellOutcome {
  address: Address;
  /** The approval (when one went first) and the sale; or one failed entry. */
  transactions: SellTransaction[];
  sold: bigint;
}

type Step = "approve" | "sell";

const failed = (address: Address, error: string): SellOutcome => ({
  address,
  transactions: [
    {
      hash: null,
      from: address,
      amount: "0",
      kind: "sell",
      status: "failed",
      error,
      route: "public",
      minOut: null,
      expectedOut: null,
    },
  ],
  sold: 0n,
});

const reasonOf = (error: unknown): string =>
  error instanceof ChainError ? error.shortMessage : (error as Error).message;

/**
 * The wallet manager's sells, every transaction through the transaction manager: keyed per
 * wallet and request (a double click, a retry, or a crash between recording and broadcasting
 * answers the transactions already recorded, which the manager broadcasts and reconciles),
 * priced in landing order by one simulation, signed with explicit nonces and broadcast together
 * in one batch, so a sell of many wallets lands in one block.
 */
export class BundleSells {
  constructor(private readonly txs: WalletTxs) {}

  /**
   * Sells `spec` from each seller (in order): one outcome per seller. Throws 400 (nothing sent)
   * for a bad percent or an amount above a wallet's balance.
   */
  async sell(
    ownerId: string,
    bundle: TradeTarget,
    sellers: Address[],
    purpose: KeyPurpose,
    spec: SellSpec,
    requestId: string | undefined,
  ): Promise<SellOutcome[]> {
    const { chain, txm, launchpad, trade } = this.txs.trading();
    const token = getAddress(bundle.tokenAddress);
    const holdings = await getTokenHoldings(chain.client, {
      token,
      addresses: sellers,
      helper: trade.helper,
      spenders: [launchpad, trade.router],
    });
    const amounts = sellAmounts(spec, holdings.holdings);
    const { tags, nonces } = await this.txs.tags(
      sellers,
      requestId,
      `${spec.amount}${spec.isPercentage ? "%" : "t"}`,
    );
    const keyOf = (address: Address, step: Step) =>
      `bundle-sell:${ownerId}:${token.toLowerCase()}:${address.toLowerCase()}:${tags.get(address)}:${step}`;

    const ownKeys = new Set(sellers.flatMap((a) => [keyOf(a, "approve"), keyOf(a, "sell")]));
    const earlier = await txm.find([...ownKeys]);
    const byKey = new Map(earlier.map((row) => [row.key, row]));
    const outcomes = new Map<Address, SellOutcome>();
    for (const address of sellers) {
      const sale = byKey.get(keyOf(address, "sell"));
      if (sale) outcomes.set(address, replayedSell(byKey.get(keyOf(address, "approve")), sale));
    }
    for (const entry of amounts)
      if ("error" in entry && !outcomes.has(entry.address))
        outcomes.set(entry.address, failed(entry.address, entry.error));
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
      const accounts = await this.txs.accounts(
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
      const answer = await txm.sendUnlessBusy(intents, { ownKeys, minedNonces: nonces });
      const rows = new Map(answer.rows.map((row) => [row.key, row]));
      for (const [wallet, row] of answer.busy)
        outcomes.set(wallet, failed(wallet, WalletTxs.busyError(wallet, row)));
      for (const sell of sent) {
        const approval = rows.get(keyOf(sell.address, "approve"));
        const sale = rows.get(keyOf(sell.address, "sell"));
        if (sale) outcomes.set(sell.address, replayedSell(approval, sale, sell.quote.amountIn));
      }
    }
    return sellers.map((a) => outcomes.get(a) ?? failed(a, "nothing was sent"));
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
    route: "public",
    minOut: null,
    expectedOut: null,
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
