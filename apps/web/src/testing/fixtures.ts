import type { Draft, DraftSummary, LaunchPlan, PublicConfig } from "@bundler/shared";

export const LOCAL_CONFIG: PublicConfig = {
  chain: "local",
  chainId: 31337,
  explorerUrl: null,
  faucet: false,
  links: { social: "https://x.com/bundler", group: "https://t.me/bundler", docs: "https://docs" },
  price: 4,
  referralDiscount: 0.6,
  referralReward: 0.4,
  priceCurrency: "USD",
  referralLaunchFeeShare: 0.1,
  launchFee: "0.5",
  builders: [{ name: "local", maxTxs: 50, signed: false }],
};

export const PAYMENT_ADDRESS = "0x1111111111111111111111111111111111111111";

/** A draft as `/api/draft/:id` answers it (keys and logo inline). */
export const draftFixture = (overrides: Partial<Draft> = {}): Draft => ({
  _id: "3f0b7c1e-8a51-4c9d-9a57-6f1c2b3d4e5f",
  status: "draft",
  tokenInfo: {
    name: "Moon Cat",
    symbol: "MCAT",
    description: "A cat that goes to the moon.",
    image: "",
    twitter: "",
    telegram: "",
    website: "",
    tradingFee: "0.25",
    preSale: "0",
    tag: "Meme",
  },
  deployerWallet: null,
  walletConfig: {
    wallets: [],
    tip: "0.001",
    tipEnabled: true,
    delayEnabled: false,
    minDelay: 0,
    maxDelay: 0,
  },
  paymentAddress: null,
  paymentAmount: null,
  paymentExpiresAt: null,
  expiresAt: null,
  updatedAt: new Date(0).toISOString(),
  refunds: [],
  launch: null,
  launchProblem: null,
  ...overrides,
});

/** A draft as `/api/draft/list` answers it: no keys, the logo by URL. */
export const draftSummaryFixture = (overrides: Partial<DraftSummary> = {}): DraftSummary => {
  const { tokenInfo, deployerWallet: _deployer, walletConfig, ...rest } = draftFixture();
  const { image: _image, ...info } = tokenInfo;
  const { tipPayer: _tipPayer, ...config } = walletConfig;
  return {
    ...rest,
    tokenInfo: { ...info, imageUrl: null },
    deployerWallet: null,
    walletConfig: { ...config, wallets: [] },
    ...overrides,
  };
};

/**
 * `n` summaries, newest first, as one user's list: ids `…0001`, `…0002`, names "Draft 1", ….
 */
export const draftSummaries = (n: number): DraftSummary[] =>
  Array.from({ length: n }, (_, i) =>
    draftSummaryFixture({
      _id: `3f0b7c1e-8a51-4c9d-9a57-${String(i + 1).padStart(12, "0")}`,
      tokenInfo: {
        ...draftSummaryFixture().tokenInfo,
        name: `Draft ${i + 1}`,
        symbol: `D${i + 1}`,
      },
    }),
  );

/**
 * A plan as `/api/bundle/plan` answers it: two bundle wallets buying 0.01 and 0.02 BNB in the
 * create's bundle, no deployer named, gas 0.0003 BNB a buy at 1 gwei.
 */
export const planFixture = (overrides: Partial<LaunchPlan> = {}): LaunchPlan => ({
  creator: {
    address: null,
    buyValue: "0",
    buyFee: "0",
    tokenAmount: "0",
    sharePercent: "0",
    creationFee: "0.005",
    gas: "0.002",
  },
  wallets: [
    {
      address: "0x2222222222222222222222222222222222222222",
      buyValue: "0.01",
      tokenAmount: "3500000000000000000000000",
      sharePercent: "0.35",
      gas: "0.0003",
      bundle: 0,
      delayed: false,
    },
    {
      address: "0x3333333333333333333333333333333333333333",
      buyValue: "0.02",
      tokenAmount: "6900000000000000000000000",
      sharePercent: "0.69",
      gas: "0.0003",
      bundle: 0,
      delayed: false,
    },
  ],
  tip: { payer: null, perBundle: "0.001", bundles: 1, gas: "0.000021" },
  funding: [
    {
      address: "0x2222222222222222222222222222222222222222",
      roles: ["bundle"],
      required: "0.0103",
    },
    {
      address: "0x3333333333333333333333333333333333333333",
      roles: ["bundle"],
      required: "0.0203",
    },
  ],
  totals: {
    bundleBuys: "0.03",
    creatorBuy: "0",
    creatorBuyFee: "0",
    delayedBuy: "0",
    tips: "0.001",
    gas: "0.002621",
    creationFee: "0.005",
    launchFee: "0.5",
    launchFeePaid: false,
    total: "0.538621",
    bundleSharePercent: "1.04",
    creatorSharePercent: "0",
    delayedSharePercent: "0",
  },
  costs: {
    gasPrice: "1000000000",
    gasPriceGwei: "1",
    gas: { create: 2_000_000, buy: 300_000, graduatingBuy: 6_000_000, tip: 30_000 },
    creationFee: "0.005",
    maxTxsPerBundle: 50,
  },
  curve: { graduates: false, soldOut: false, warning: null },
  ...overrides,
});
