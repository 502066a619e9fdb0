import { splitBuyers } from "@bundler/chain";
import { type CurveState, preSaleFee } from "@bundler/contracts";
import type { LaunchPlan } from "@bundler/shared";
import { type Address, formatEther, formatGwei } from "viem";
import { quoteSequence, sharePercent } from "./curve-sequence.ts";

/**
 * Gas budgets for funding a launch before it exists. At launch the chain layer signs each
 * transaction with the gas the node's simulation measured (plus a margin), which stays under
 * these ceilings: a buy on our launchpad uses under 200k (the buy that fills the curve and
 * graduates it, several million), a create under 1.2M (a tax token's, which deploys a
 * TaxToken, 1.93M with a creator buy: 2.36M with the margin), a tip transfer 21k (budgeted at
 * 30k: like the others, it has room for a gas price that rose between the plan and the launch;
 * with none, a tip payer funded with exactly its `required` was short by 21k × the rise, seen
 * once in CI). A wallet funded with its `required` amount therefore covers its launch-time need
 * unless the gas price rose by more than that room.
 */
export const LAUNCH_GAS = {
  create: 2_000_000n,
  taxCreate: 3_000_000n,
  buy: 300_000n,
  graduatingBuy: 6_000_000n,
  tip: 30_000n,
} as const;

export interface LaunchCosts {
  /** The gas price the launch signs with (wei). */
  gasPrice: bigint;
  /** The launchpad's creation fee (`_launchFee()`), sent with the create. */
  creationFee: bigint;
  /** Transactions one bundle holds; more wallets are split over several bundles. */
  maxTxsPerBundle: number;
  /**
   * The curve estimates price with; its `tradingFeeRate` is the launchpad's `_tradingFeeRate()`,
   * which the create also charges on the creator's buy.
   */
  curve: Omit<CurveState, "offers">;
}

export interface LaunchPlanInput {
  deployer: Address | null;
  /** null: the deployer pays the tips. */
  tipPayer: Address | null;
  preSale: bigint;
  /** Per bundle. */
  tip: bigint;
  wallets: ReadonlyArray<{ address: Address; buyValue: bigint }>;
  sniper: Address | null;
  launchFee: bigint;
  launchFeePaid: boolean;
  /** A tax token (tokenTaxInfo set): its create is budgeted `LAUNCH_GAS.taxCreate`. */
  taxToken?: boolean;
}

type Role = LaunchPlan["funding"][number]["roles"][number];

/**
 * The whole launch, priced: each buy quoted in the chain's order, each wallet's gas, what every
 * address must hold (as launchToken checks it before sending), and the totals. Pure.
 */
export const planLaunch = (input: LaunchPlanInput, costs: LaunchCosts): LaunchPlan => {
  const { gasPrice } = costs;
  const sequence = quoteSequence({
    curve: costs.curve,
    preSale: input.preSale,
    wallets: input.wallets,
    sniper: input.sniper,
  });
  const isSniper = (address: Address) =>
    input.sniper !== null && address.toLowerCase() === input.sniper.toLowerCase();
  // The launch sends a buy for every bundled wallet with a buy value, in order.
  const buyerIndexes = input.wallets.flatMap((w, i) =>
    !isSniper(w.address) && w.buyValue > 0n ? [i] : [],
  );
  const groups = splitBuyers(buyerIndexes.length, costs.maxTxsPerBundle);
  const bundleOf = new Map<number, number>();
  for (const [bundle, [from, to]] of groups.entries())
    for (let k = from; k < to; k++) bundleOf.set(buyerIndexes[k] as number, bundle);

  const funding = new Map<string, { address: Address; roles: Role[]; required: bigint }>();
  const need = (address: Address | null, role: Role, amount: bigint) => {
    if (!address) return;
    const entry = funding.get(address.toLowerCase()) ?? { address, roles: [], required: 0n };
    if (!entry.roles.includes(role)) entry.roles.push(role);
    entry.required += amount;
    funding.set(address.toLowerCase(), entry);
  };

  const createLimit = input.taxToken ? LAUNCH_GAS.taxCreate : LAUNCH_GAS.create;
  const createGas = createLimit * gasPrice;
  // The create sends launchFee + preSale + preSale × tradingFeeRate / 10000 (create guide §4).
  const creatorBuyFee = preSaleFee(input.preSale, costs.curve.tradingFeeRate);
  const walletGas: bigint[] = [];
  need(input.deployer, "deployer", costs.creationFee + input.preSale + creatorBuyFee + createGas);
  const wallets = input.wallets.map((wallet, i) => {
    const step = sequence.wallets[i];
    const buys = wallet.buyValue > 0n;
    const limit = step?.outcome === "fills" ? LAUNCH_GAS.graduatingBuy : LAUNCH_GAS.buy;
    const gas = buys ? limit * gasPrice : 0n;
    walletGas.push(gas);
    if (buys) need(wallet.address, step?.delayed ? "delayed" : "bundle", wallet.buyValue + gas);
    return {
      address: wallet.address,
      buyValue: formatEther(wallet.buyValue),
      tokenAmount: (step?.amount ?? 0n).toString(),
      sharePercent: sharePercent(step?.amount ?? 0n),
      gas: formatEther(gas),
      bundle: bundleOf.get(i) ?? null,
      delayed: step?.delayed ?? false,
    };
  });
  const bundles = BigInt(groups.length);
  const tipGas = bundles * LAUNCH_GAS.tip * gasPrice;
  need(input.tipPayer ?? input.deployer, "tip payer", bundles * input.tip + tipGas);

  const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
  const bundledSteps = sequence.wallets.filter((s) => !s.delayed);
  const delayedSteps = sequence.wallets.filter((s) => s.delayed);
  const buysOf = (delayed: boolean) =>
    sum(input.wallets.filter((w) => isSniper(w.address) === delayed).map((w) => w.buyValue));
  const bundleBuys = buysOf(false);
  const delayedBuy = buysOf(true);
  const gas = createGas + sum(walletGas) + tipGas;
  const tips = bundles * input.tip;
  const total =
    bundleBuys +
    input.preSale +
    creatorBuyFee +
    delayedBuy +
    tips +
    gas +
    costs.creationFee +
    input.launchFee;
  return {
    creator: {
      address: input.deployer,
      buyValue: formatEther(input.preSale),
      buyFee: formatEther(creatorBuyFee),
      tokenAmount: sequence.creator.amount.toString(),
      sharePercent: sharePercent(sequence.creator.amount),
      creationFee: formatEther(costs.creationFee),
      gas: formatEther(createGas),
    },
    wallets,
    tip: {
      payer: input.tipPayer ?? input.deployer,
      perBundle: formatEther(input.tip),
      bundles: groups.length,
      gas: formatEther(tipGas),
    },
    funding: [...funding.values()].map((f) => ({ ...f, required: formatEther(f.required) })),
    totals: {
      bundleBuys: formatEther(bundleBuys),
      creatorBuy: formatEther(input.preSale),
      creatorBuyFee: formatEther(creatorBuyFee),
      delayedBuy: formatEther(delayedBuy),
      tips: formatEther(tips),
      gas: formatEther(gas),
      creationFee: formatEther(costs.creationFee),
      launchFee: formatEther(input.launchFee),
      launchFeePaid: input.launchFeePaid,
      total: formatEther(total),
      bundleSharePercent: sharePercent(sum(bundledSteps.map((s) => s.amount))),
      creatorSharePercent: sharePercent(sequence.creator.amount),
      delayedSharePercent: sharePercent(sum(delayedSteps.map((s) => s.amount))),
    },
    costs: {
      gasPrice: gasPrice.toString(),
      gasPriceGwei: formatGwei(gasPrice),
      gas: {
        create: Number(createLimit),
        buy: Number(LAUNCH_GAS.buy),
        graduatingBuy: Number(LAUNCH_GAS.graduatingBuy),
        tip: Number(LAUNCH_GAS.tip),
      },
      creationFee: formatEther(costs.creationFee),
      maxTxsPerBundle: costs.maxTxsPerBundle,
    },
    curve: sequence.outlook,
  };
};
