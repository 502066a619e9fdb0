import { GWEI_UNIT, newCurve, quoteBuyWithFunds } from "@bundler/contracts";
import fc from "fast-check";
import { type Address, parseEther, parseGwei } from "viem";
import { describe, expect, it } from "vitest";
import { DEFAULT_CURVE } from "../../lib/chain-context.ts";
import { generateBuys } from "../wallets/buy-amounts.ts";
import { LAUNCH_GAS, type LaunchCosts, type LaunchPlanInput, planLaunch } from "./launch-plan.ts";

const address = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}` as Address;
const DEPLOYER = address(900);
const TIP_PAYER = address(901);

const costs = (maxTxsPerBundle = 50): LaunchCosts => ({
  gasPrice: parseGwei("1"),
  creationFee: parseEther("0.01"),
  maxTxsPerBundle,
  curve: DEFAULT_CURVE,
});

const input = (overrides: Partial<LaunchPlanInput> = {}): LaunchPlanInput => ({
  deployer: DEPLOYER,
  tipPayer: TIP_PAYER,
  preSale: parseEther("0.1"),
  tip: parseEther("0.001"),
  wallets: [
    { address: address(0), buyValue: parseEther("0.2") },
    { address: address(1), buyValue: parseEther("0.3") },
  ],
  sniper: null,
  launchFee: parseEther("0.5"),
  launchFeePaid: false,
  ...overrides,
});

const wei = (bnb: string) => parseEther(bnb);

describe("launch plan", () => {
  it("has the per-wallet amounts add up to what the totals say, whatever the amounts", () => {
    const walletCount = fc.integer({ min: 1, max: 60 });
    const range = fc
      .tuple(fc.integer({ min: 0, max: 500_000 }), fc.integer({ min: 0, max: 500_000 }))
      .map(([a, b]) => (a <= b ? [a, b] : [b, a]));
    fc.assert(
      fc.property(
        walletCount,
        range,
        fc.bigInt({ min: 0n, max: parseEther("2") }),
        fc.integer({ min: 3, max: 50 }),
        fc.boolean(),
        fc.boolean(),
        (count, [lo, hi], preSale, cap, withSniper, ownTipPayer) => {
          const addresses = Array.from({ length: count }, (_, i) => address(i));
          const sniper = withSniper ? (addresses[count - 1] as Address) : null;
          const creatorBuy = preSale - (preSale % GWEI_UNIT);
          const { buys } = generateBuys({
            addresses,
            range: {
              minBuyAmount: `0.${String(lo).padStart(6, "0")}`,
              maxBuyAmount: `0.${String(hi).padStart(6, "0")}`,
              isPercentage: false,
            },
            curve: DEFAULT_CURVE,
            creatorBuy,
            sniper,
          });
          const plan = planLaunch(
            input({
              preSale: creatorBuy,
              wallets: buys,
              sniper,
              tipPayer: ownTipPayer ? TIP_PAYER : null,
            }),
            costs(cap),
          );
          const bundled = plan.wallets.filter((w) => !w.delayed);
          const sum = (values: string[]) => values.reduce((s, v) => s + wei(v), 0n);
          expect(sum(bundled.map((w) => w.buyValue))).toBe(wei(plan.totals.bundleBuys));
          expect(sum(plan.wallets.filter((w) => w.delayed).map((w) => w.buyValue))).toBe(
            wei(plan.totals.delayedBuy),
          );
          // Everything but the launch fee is paid from the launch's own wallets.
          expect(sum(plan.funding.map((f) => f.required))).toBe(
            wei(plan.totals.total) - wei(plan.totals.launchFee),
          );
          const parts = [
            plan.totals.bundleBuys,
            plan.totals.creatorBuy,
            plan.totals.creatorBuyFee,
            plan.totals.delayedBuy,
            plan.totals.tips,
            plan.totals.gas,
            plan.totals.creationFee,
            plan.totals.launchFee,
          ];
          expect(sum(parts)).toBe(wei(plan.totals.total));
          expect(sum([plan.creator.gas, plan.tip.gas, ...plan.wallets.map((w) => w.gas)])).toBe(
            wei(plan.totals.gas),
          );
          expect(plan.wallets.map((w) => w.tokenAmount)).toEqual(
            buys.map((b) => b.tokenAmount.toString()),
          );
          const buyers = bundled.filter((w) => wei(w.buyValue) > 0n).length;
          expect(plan.tip.bundles).toBe(
            Math.max(1, 1 + Math.ceil((buyers - (cap - 2)) / (cap - 1))),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("asks each wallet for its buy plus its gas, and the deployer for the create's value (create-guide §4: launch fee, creator buy and the trading fee on it) and its gas", () => {
    const plan = planLaunch(input(), costs());
    const gwei = parseGwei("1");
    const required = new Map(plan.funding.map((f) => [f.address, wei(f.required)]));
    expect(required.get(address(0))).toBe(parseEther("0.2") + LAUNCH_GAS.buy * gwei);
    expect(required.get(address(1))).toBe(parseEther("0.3") + LAUNCH_GAS.buy * gwei);
    expect(required.get(DEPLOYER)).toBe(
      parseEther("0.01") + parseEther("0.1") + parseEther("0.001") + LAUNCH_GAS.create * gwei,
    );
    expect(required.get(TIP_PAYER)).toBe(parseEther("0.001") + LAUNCH_GAS.tip * gwei);
  });

  it("budgets a tax token's create (it deploys a TaxToken: 1.93M gas with a creator buy, 2.36M with the signing margin) more gas than a plain one's", () => {
    const gwei = parseGwei("1");
    const deployerNeeds = (taxToken: boolean) => {
      const plan = planLaunch(input({ taxToken }), costs());
      return {
        required: wei(plan.funding.find((f) => f.address === DEPLOYER)?.required ?? "0"),
        gas: plan.costs.gas.create,
      };
    };
    const plain = deployerNeeds(false);
    const taxed = deployerNeeds(true);
    expect(taxed.gas).toBe(3_000_000);
    expect(taxed.gas).toBeGreaterThan((1_930_000 * 12) / 10 + 50_000);
    expect(taxed.required - plain.required).toBe((LAUNCH_GAS.taxCreate - LAUNCH_GAS.create) * gwei);
  });

  it("adds the tips to the deployer when it pays them, one per bundle", () => {
    const wallets = Array.from({ length: 60 }, (_, i) => ({
      address: address(i),
      buyValue: parseEther("0.01"),
    }));
    const plan = planLaunch(input({ tipPayer: null, wallets }), costs(50));
    expect(plan.tip.bundles).toBe(2);
    expect(plan.wallets[47]?.bundle).toBe(0);
    expect(plan.wallets[48]?.bundle).toBe(1);
    const deployer = plan.funding.find((f) => f.address === DEPLOYER);
    expect(deployer?.roles).toEqual(["deployer", "tip payer"]);
    expect(wei(deployer?.required ?? "0")).toBe(
      parseEther("0.111") +
        LAUNCH_GAS.create * parseGwei("1") +
        2n * (parseEther("0.001") + LAUNCH_GAS.tip * parseGwei("1")),
    );
  });

  it("shows the launchpad's trading fee on the creator's buy beside it, at the launchpad's rate, and prices the buy with it (create-guide §4)", () => {
    const plan = planLaunch(input(), {
      ...costs(),
      curve: { ...DEFAULT_CURVE, tradingFeeRate: 250n },
    });
    expect(plan.creator.buyValue).toBe("0.1");
    expect(plan.creator.buyFee).toBe("0.0025");
    expect(plan.totals.creatorBuyFee).toBe("0.0025");
    const curve = newCurve({ ...DEFAULT_CURVE, tradingFeeRate: 250n });
    expect(plan.creator.tokenAmount).toBe(
      quoteBuyWithFunds(curve, parseEther("0.1025")).amount.toString(),
    );
  });

  it("budgets the graduating buy's larger gas for the wallet that fills the curve", () => {
    const wallets = [
      { address: address(0), buyValue: parseEther("20") },
      { address: address(1), buyValue: parseEther("10") },
    ];
    const plan = planLaunch(input({ wallets }), costs());
    expect(plan.curve.graduates).toBe(true);
    expect(wei(plan.wallets[1]?.gas ?? "0")).toBe(LAUNCH_GAS.graduatingBuy * parseGwei("1"));
    expect(wei(plan.wallets[0]?.gas ?? "0")).toBe(LAUNCH_GAS.buy * parseGwei("1"));
  });

  it("holds the sniper out of the bundle and the bundle's share", () => {
    const plan = planLaunch(input({ sniper: address(0) }), costs());
    expect(plan.wallets[0]).toMatchObject({ delayed: true, bundle: null });
    expect(plan.wallets[1]).toMatchObject({ delayed: false, bundle: 0 });
    expect(plan.totals.bundleSharePercent).toBe(plan.wallets[1]?.sharePercent);
    expect(plan.funding.find((f) => f.address === address(0))?.roles).toEqual(["delayed"]);
  });
});
