import {
  type GetTokenHoldingsReturnType,
  getSellableTokens,
  getTokenHoldings,
  kindRefusal,
  netOfSellFee,
  prepareSells,
  routeOf,
} from "@bundler/chain";
import { SELL_SLIPPAGE_BPS, type SellRoute, type SellTransaction } from "@bundler/shared";
import { type Address, formatEther, getAddress, type Hex, parseEther } from "viem";
import { BadRequestError } from "../../lib/errors.ts";
import type { KeyPurpose } from "../../lib/key-vault.ts";
import { isFinal, type OpenTx, type TxRow } from "../transactions/transactions.repository.ts";
import type { TxIntent } from "../transactions/tx-manager.ts";
import { formatTokens, type SellSpec, sellAmounts } from "./sell-amounts.ts";
import { type BundledSell, sendSellBundles } from "./sell-bundles.ts";
import { latestAttempts, resubmitSells, type Step, sellKey } from "./sell-replays.ts";
import { sellReasonOf } from "./sell-words.ts";
import { saleOf } from "./sold-amount.ts";
import { type TradeTarget, WalletTxs } from "./wallet-txs.ts";

export interface SellOutcome {
  address: Address;
  /** The approval (when one went first) and the sale; or one failed entry. */
  transactions: SellTransaction[];
  sold: bigint;
  /** Another transaction of the wallet was in flight: nothing was recorded for it. */
  held?: true;
}

/** What a caller asks: how much each wallet sells, how far under its price, and how it goes. */
export interface SellRequest extends SellSpec {
  /** Each sale's floor: its simulated proceeds less this many basis points (default 500). */
  slippageBps?: number;
  /**
   * "bundle" (the default): privately to the builders, together; "public": each transaction
   * to the node's pool, only when a user asks for it.
   */
  route?: SellRoute;
}

/** What a builder is paid for each sell bundle by default, wei (the local builder's minimum). */
export const DEFAULT_SELL_TIP = parseEther("0.0005");

const failed = (address: Address, error: string, route: SellRoute): SellOutcome => ({
  address,
  transactions: [
    {
      hash: null,
      from: address,
      amount: "0",
      kind: "sell",
      status: "failed",
      error,
      route,
      minOut: null,
      expectedOut: null,
    },
  ],
  sold: 0n,
});

/**
 * The wallet manager's sells, every transaction through the transaction manager: keyed per
 * wallet and request (a double click, a retry, or a crash between recording and sending
 * answers the transactions already recorded), priced in landing order by one simulation, each
 * sale with a floor (its simulated proceeds less the slippage), signed with explicit nonces.
 * Route "bundle" sends them privately as bundles (`sell-bundles.ts`): the sells of a request
 * land in one block when they fit one bundle, all or none. Route "public" broadcasts them
 * together to the node's pool.
 */
export class BundleSells {
  constructor(
    private readonly txs: WalletTxs,
    private readonly options: { tip?: bigint } = {},
  ) {}

  /**
   * Per holding of `token` (read with the launchpad's helper), the tokens a sale of all of
   * them can take: 0n for a wallet holding none or only dust (`getSellableTokens`), which must
   * not be asked to sell. Without the token's state, every token held.
   */
  async sellable(token: Address, holdings: GetTokenHoldingsReturnType): Promise<bigint[]> {
    const { chain, launchpad, trade } = this.txs.trading();
    if (!holdings.info) return holdings.holdings.map((h) => h.token);
    return getSellableTokens(chain.client, {
      route: routeOf(holdings.info, { token, launchpad }),
      router: trade.router,
      weth: trade.weth,
      token,
      holdings: holdings.holdings,
    });
  }

  /** `sellAll`'s outcomes. */
  async sell(
    ownerId: string,
    bundle: TradeTarget,
    sellers: Address[],
    purpose: KeyPurpose | readonly KeyPurpose[],
    request: SellRequest,
    requestId: string | undefined,
  ): Promise<SellOutcome[]> {
    return (await this.sellAll(ownerId, bundle, sellers, purpose, request, requestId)).outcomes;
  }

  /**
   * Sells from each seller (in order): one outcome per seller, and how many bundles a builder
   * took. Throws 400 (nothing sent) for a bad percent or an amount above a wallet's balance.
   */
  async sellAll(
    ownerId: string,
    bundle: TradeTarget,
    sellers: Address[],
    purpose: KeyPurpose | readonly KeyPurpose[],
    request: SellRequest,
    requestId: string | undefined,
  ): Promise<{ outcomes: SellOutcome[]; bundles: number }> {
    const { chain, txm, launchpad, trade, sends } = this.txs.trading();
    const route = request.route ?? "bundle";
    const slippageBps = request.slippageBps ?? SELL_SLIPPAGE_BPS.default;
    const token = getAddress(bundle.tokenAddress);
    const holdings = await getTokenHoldings(chain.client, {
      token,
      addresses: sellers,
      helper: trade.helper,
      launchpad,
      spenders: [launchpad, trade.router],
    });
    // A TokenManager V1 or X Mode token is not this app's to trade: said before anything else.
    const refusal = kindRefusal(holdings.info?.version ?? 2n, holdings.template);
    if (refusal) throw new BadRequestError(`Token ${token} cannot be sold here: ${refusal}`);
    const sellable = await this.sellable(token, holdings);
    const amounts = sellAmounts(
      request,
      holdings.holdings.map((h, i) => ({ ...h, sellable: sellable[i] ?? h.token })),
    );
    const { tags, nonces } = await this.txs.tags(
      sellers,
      requestId,
      `${request.amount}${request.isPercentage ? "%" : "t"}:${route}:${slippageBps}`,
    );
    const bases = new Map(
      sellers.map((a) => [
        a,
        `bundle-sell:${ownerId}:${token.toLowerCase()}:${a.toLowerCase()}:${tags.get(a)}`,
      ]),
    );
    let head: Promise<bigint> | undefined;
    const headOnce = () => {
      head ??= chain.client.getBlockNumber();
      return head;
    };
    const attempts = await latestAttempts(txm, bases, headOnce);
    const keyOf = (address: Address, step: Step) =>
      sellKey(bases.get(address) as string, attempts.get(address)?.attempt ?? 0, step);

    const ownKeys = new Set(sellers.flatMap((a) => [keyOf(a, "approve"), keyOf(a, "sell")]));
    const outcomes = new Map<Address, SellOutcome>();
    const replays = sellers.flatMap((address) => {
      const { approval, sale } = attempts.get(address) ?? { attempt: 0 };
      return sale ? [{ address, approval, sale }] : [];
    });
    const fees = holdings.info;
    for (const { address, approval, sale } of replays)
      outcomes.set(address, sellOutcome(approval, sale, fees));
    for (const [address, { waits }] of attempts)
      if (waits) outcomes.set(address, { ...failed(address, waits, route), held: true });
    const tip = this.options.tip ?? DEFAULT_SELL_TIP;
    const bnbOf = (wallet: Address) =>
      holdings.holdings.find((h) => h.address.toLowerCase() === wallet.toLowerCase())?.bnb ?? 0n;
    // A bundle recorded by an earlier identical request that may never have gone out.
    let bundles = replays.some(({ sale }) => sale.validUntilBlock !== null)
      ? await resubmitSells({ chain, txm, tip, sends }, replays, {
          head: await headOnce(),
          accounts: (wallets) => this.txs.accounts(bundle, purpose, wallets),
          bnbOf,
          slippageBps,
        })
      : 0;
    for (const entry of amounts)
      if ("error" in entry && !outcomes.has(entry.address))
        outcomes.set(entry.address, failed(entry.address, entry.error, route));
    const toSell = amounts.flatMap((entry) =>
      "amount" in entry && !outcomes.has(entry.address) ? [entry] : [],
    );
    const answer = () =>
      sellers.map((a) => outcomes.get(a) ?? failed(a, "nothing was sent", route));
    if (toSell.length === 0) return { outcomes: answer(), bundles };

    const prepared = await prepareSells(chain.client, {
      launchpad,
      ...trade,
      token,
      sellers: toSell,
      gasPrice: await txm.gasPrice(),
      holdings,
      slippageBps: BigInt(slippageBps),
    });
    const accounts = await this.txs.accounts(
      bundle,
      purpose,
      toSell.map((s) => s.address),
    );
    const ready: BundledSell[] = [];
    for (const sell of prepared.sells) {
      const account = accounts.get(sell.address.toLowerCase());
      if ("error" in sell) {
        outcomes.set(sell.address, failed(sell.address, sellReasonOf(sell.error), route));
        continue;
      }
      if (!account) {
        const missing = `the key of wallet ${sell.address} is missing`;
        outcomes.set(sell.address, failed(sell.address, missing, route));
        continue;
      }
      const common = {
        ownerId,
        subject: token.toLowerCase(),
        account,
        gasPrice: prepared.gasPrice,
      };
      const intents: TxIntent[] = [];
      // After attempts that can no longer land through their bundle: checked against each.
      const retries = attempts.get(sell.address)?.retries;
      if (sell.approval)
        intents.push({
          ...common,
          ...(retries?.approve ? { retries: retries.approve } : {}),
          key: keyOf(sell.address, "approve"),
          purpose: "bundle-approve",
          ...sell.approval.request,
          gas: sell.approval.gas,
          reason: `approve ${bundle.ticker} for sale`,
        });
      intents.push({
        ...common,
        ...(retries ? { retries: retries.sell } : {}),
        key: keyOf(sell.address, "sell"),
        purpose: "bundle-sell",
        ...sell.sale.request,
        gas: sell.sale.gas,
        reason: `sell ${formatTokens(sell.quote.amountIn)} ${bundle.ticker} for at least ${formatEther(sell.minOut)} BNB`,
      });
      ready.push({ sell, account, bnb: bnbOf(sell.address), intents });
    }

    const guard = { ownKeys, minedNonces: nonces };
    let rows: Map<string, TxRow>;
    let busy: Map<Address, OpenTx>;
    let refused = new Map<Address, string>();
    if (route === "bundle") {
      const sent = await sendSellBundles({ chain, txm, tip, sends }, ready, {
        guard,
        gasPrice: prepared.gasPrice,
        slippageBps,
      });
      ({ rows, busy } = sent);
      bundles += sent.bundles;
      refused = sent.failed;
    } else {
      const sent = await txm.sendUnlessBusy(
        ready.flatMap((s) => s.intents),
        guard,
      );
      rows = new Map(sent.rows.map((row) => [row.key, row]));
      busy = sent.busy;
    }
    for (const [wallet, row] of busy)
      outcomes.set(wallet, {
        ...failed(wallet, WalletTxs.busyError(wallet, row), route),
        held: true,
      });
    for (const { sell } of ready) {
      const sale = rows.get(keyOf(sell.address, "sell"));
      const reason = refused.get(sell.address);
      if (!sale) {
        if (reason && !outcomes.has(sell.address))
          outcomes.set(sell.address, failed(sell.address, reason, route));
        continue;
      }
      outcomes.set(
        sell.address,
        sellOutcome(rows.get(keyOf(sell.address, "approve")), sale, fees, {
          amount: sell.quote.amountIn,
          minFunds: sell.minFunds,
          expectedOut: sell.quote.amountOut,
          error: reason ?? null,
        }),
      );
    }
    return { outcomes: answer(), bundles };
  }
}

/**
 * A sell recorded by the manager, as entries: its amount and floor read from the signed sale
 * (an identical request may have signed it), what the simulation said it fetches when this
 * request priced that very sale (`fresh`). The floor is said as what the wallet gets at least:
 * a curve sale's signed `minFunds` is the gross curve quote, so the launchpad's fee on it
 * (`fees`, the token's rate and minimum) is taken off.
 */
const sellOutcome = (
  approval: TxRow | undefined,
  sale: TxRow,
  fees: { tradingFeeRate: bigint; minTradingFee: bigint } | null,
  fresh?: { amount: bigint; minFunds: bigint; expectedOut: bigint; error: string | null },
): SellOutcome => {
  const from = getAddress(sale.from);
  const signed = saleOf(sale.rawTx as Hex);
  const expectedOut =
    fresh && signed.amount === fresh.amount && signed.minFunds === fresh.minFunds
      ? formatEther(fresh.expectedOut)
      : null;
  const minOut =
    signed.minFunds === null
      ? null
      : signed.onCurve && fees
        ? netOfSellFee(signed.minFunds, fees)
        : signed.minFunds;
  const route: SellRoute = sale.validUntilBlock === null ? "public" : "bundle";
  // A bundle no builder took: said at once, though its rows stay open until its window passes.
  const error = fresh
    ? fresh.error
    : !isFinal(sale.status) && route === "bundle"
      ? sale.error
      : null;
  const entry = (row: TxRow, kind: Step, units: bigint): SellTransaction => ({
    hash: row.txHash,
    from,
    amount: formatTokens(units),
    kind,
    status: error ? "failed" : "pending",
    error,
    route,
    minOut: kind === "sell" && minOut !== null ? formatEther(minOut) : null,
    expectedOut: kind === "sell" ? expectedOut : null,
  });
  return {
    address: from,
    transactions: [
      ...(approval ? [entry(approval, "approve", 0n)] : []),
      entry(sale, "sell", signed.amount),
    ],
    sold: error ? 0n : signed.amount,
  };
};
