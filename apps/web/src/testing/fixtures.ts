import type { Draft, PublicConfig } from "@bundler/shared";

export const LOCAL_CONFIG: PublicConfig = {
  chain: "local",
  chainId: 31337,
  explorerUrl: null,
  faucet: false,
  links: { social: "https://x.com/bundler", group: "https://t.me/bundler", docs: "https://docs" },
};

export const PAYMENT_ADDRESS = "0x1111111111111111111111111111111111111111";

/** A draft as `/api/draft/list` answers it. */
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
  ...overrides,
});
