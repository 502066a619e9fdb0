import type { Address } from "viem";

export type ChainName = "local" | "bsc-testnet" | "bsc";

export interface BuilderEndpoint {
  name: string;
  url: string;
  tipAddress: Address;
  maxTxs: number;
}

/** Everything that differs between networks, as data. */
export interface ChainProfile {
  name: ChainName;
  chainId: number;
  /** Default RPC endpoints; `RPC_URL` overrides the first. Empty for local: the server spawns anvil. */
  rpcUrls: string[];
  explorerUrl: string | null;
  launchpad?: { tokenManager: Address; helper: Address };
  /** The DEX graduated tokens trade on (PancakeSwap V2 on BSC; Uniswap V2 locally). */
  dex?: { router: Address; wrappedNative: Address };
  builders: BuilderEndpoint[];
  /** Bundles and transfers never bid below this gas price (wei). */
  gasPriceFloor: bigint;
  /** Where the BNB/USD price comes from. */
  bnbPrice: { kind: "fixed"; usd: number } | { kind: "chainlink"; aggregator: Address };
  /** Only the local chain has a faucet. */
  faucet: boolean;
}

export const profiles: Record<ChainName, ChainProfile> = {
  // Never 56 or 97: a transaction signed for the local chain must not replay on BSC.
  local: {
    name: "local",
    chainId: 31337,
    rpcUrls: [],
    explorerUrl: null,
    // Launchpad, DEX and builder are deployed at first start and filled in by the server.
    builders: [],
    gasPriceFloor: 1_000_000_000n,
    bnbPrice: { kind: "fixed", usd: 600 },
    faucet: true,
  },
  "bsc-testnet": {
    name: "bsc-testnet",
    chainId: 97,
    rpcUrls: ["https://bsc-testnet-dataseed.bnbchain.org"],
    explorerUrl: "https://testnet.bscscan.com",
    builders: [],
    gasPriceFloor: 100_000_000n,
    bnbPrice: { kind: "fixed", usd: 600 },
    faucet: false,
  },
  bsc: {
    name: "bsc",
    chainId: 56,
    rpcUrls: ["https://bsc-dataseed.bnbchain.org"],
    explorerUrl: "https://bscscan.com",
    launchpad: {
      tokenManager: "0x5c952063c7fc8610FFDB798152D69F0B9550762b",
      helper: "0xF251F83e40a78868FcfA3FA4599Dad6494E46034",
    },
    dex: {
      router: "0x10ED43C718714eb63d5aA57B78B54704E256024E",
      wrappedNative: "0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c",
    },
    gasPriceFloor: 50_000_000n,
    bnbPrice: { kind: "chainlink", aggregator: "0x0567F2323251f0Aab15c8dFb1967E4e8A7D42aeE" },
    builders: [
      {
        name: "48club",
        url: "https://puissant-builder.48.club/",
        tipAddress: "0x4848489f0b2BEdd788c696e2D79b6b69D7484848",
        maxTxs: 50,
      },
      {
        name: "blockrazor",
        url: "https://rpc.blockrazor.builders",
        tipAddress: "0x1266C6bE60392A8Ff346E8d5ECCd3E69dD9c5F20",
        maxTxs: 50,
      },
    ],
    faucet: false,
  },
};

/** A link to a transaction on the profile's explorer, or null on the local chain. */
export const explorerTxUrl = (profile: ChainProfile, hash: string): string | null =>
  profile.explorerUrl ? `${profile.explorerUrl}/tx/${hash}` : null;
