/**
 * The launch page's hand-off to the disperser: "Missing Funds (Go to Disperser)" stores the
 * bundle wallets here as JSON `[{address, buyValue}]` (BNB decimal strings) and opens
 * `/disperser?autoImport=true`.
 */
export const BUNDLER_WALLETS_KEY = "bundler-wallets";

export interface BundlerWallet {
  address: string;
  buyValue: string;
}

export const encodeBundlerWallets = (wallets: readonly BundlerWallet[]): string =>
  JSON.stringify(wallets.map(({ address, buyValue }) => ({ address, buyValue })));
