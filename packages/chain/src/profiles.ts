import type { Address } from "viem";
import { ChainError } from "./errors.ts";

export type ChainName = "local" | "bsc-testnet" | "bsc";

export interface BuilderEndpoint {
  name: string;
  url: string;
  tipAddress: Address;
  maxTxs: number;
  /** Sent as the builder's `Authorization` header (a keyed endpoint); never logged. */
  authorization?: string;
  /** The lowest gas price the builder takes, wei: a bundle priced under it is not sent there. */
  minGasPrice?: bigint;
}

/** Everything that differs between networks, as data. */
export interface ChainProfile {
  name: ChainName;
  chainId: number;
  /** Default RPC endpoints; `RPC_URL` overrides the first. Empty for local: the server spawns anvil. */
  rpcUrls: string[];
  explorerUrl: string | null;
  /**
   * four.meme's contracts. The creation fee is TokenManager2's `_launchFee()`, read when a
   * launch starts (`getLaunchFees`), never a constant: four.meme changes it.
   */
  launchpad?: { tokenManager: Address; helper: Address };
  /** The DEX graduated tokens trade on (PancakeSwap V2 on BSC; Uniswap V2 locally). */
  dex?: { router: Address; wrappedNative: Address };
  builders: BuilderEndpoint[];
  /** Bundles and transfers never bid below this gas price (wei). */
  gasPriceFloor: bigint;
  /**
   * Transactions one wallet keeps in flight at most: public nodes' pools hold only so many
   * pending transactions per sender (geth's default guarantees 16 and keeps more while it
   * has room), anvil has no such limit.
   */
  maxPendingPerSender: number;
  /** Where the BNB/USD price comes from. */
  bnbPrice: { kind: "fixed"; usd: number } | { kind: "chainlink"; aggregator: Address };
  /** Only the local chain has a faucet. */
  faucet: boolean;
  /**
   * Web pages about a token, `{token}` standing for its address: the launchpad's page, and
   * where it trades once it graduated (the DEX). Null where there is none.
   */
  tokenPages: { launchpad: string | null; dex: string | null };
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
    maxPendingPerSender: 500,
    bnbPrice: { kind: "fixed", usd: 600 },
    faucet: true,
    // No launchpad site or DEX site here: a graduated token trades from the wallet manager
    // (its sells go through the local DEX), so that is where its trade link opens.
    tokenPages: { launchpad: null, dex: "/wallets/{token}" },
  },
  "bsc-testnet": {
    name: "bsc-testnet",
    chainId: 97,
    rpcUrls: ["https://bsc-testnet-dataseed.bnbchain.org"],
    explorerUrl: "https://testnet.bscscan.com",
    builders: [],
    gasPriceFloor: 100_000_000n,
    maxPendingPerSender: 64,
    bnbPrice: { kind: "fixed", usd: 600 },
    faucet: false,
    tokenPages: {
      launchpad: null,
      dex: "https://pancakeswap.finance/swap?chain=bscTestnet&outputCurrency={token}",
    },
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
    maxPendingPerSender: 64,
    bnbPrice: { kind: "chainlink", aggregator: "0x0567F2323251f0Aab15c8dFb1967E4e8A7D42aeE" },
    builders: [
      {
        name: "48club",
        url: "https://puissant-builder.48.club/",
        tipAddress: "0x4848489f0b2BEdd788c696e2D79b6b69D7484848",
        // Unsigned guests: 50 needs its top tier and a 48spSign signature, which we do not send.
        maxTxs: 5,
      },
      {
        name: "blockrazor",
        url: "https://rpc.blockrazor.builders",
        tipAddress: "0x1266C6bE60392A8Ff346E8d5ECCd3E69dD9c5F20",
        // Its top tier; lower tiers take fewer (BUILDER_MAX_TXS sets yours).
        maxTxs: 50,
      },
    ],
    faucet: false,
    tokenPages: {
      launchpad: "https://four.meme/token/{token}",
      dex: "https://pancakeswap.finance/swap?outputCurrency={token}",
    },
  },
};

/** NodeReal's bundle tips go to the system address its docs name. */
export const NODEREAL_TIP_ADDRESS: Address = "0xffffFFFfFFffffffffffffffFfFFFfffFFFfFFfE";

/** Largest caps we can honour: 48 Club takes more only from 48spSign-signed bundles. */
const CAP_LIMITS: Record<string, { limit: number; why: string }> = {
  "48club": {
    limit: 5,
    why: "48 Club takes more only from bundles signed with 48spSign, which this app does not send",
  },
};

export interface BuildersForOptions {
  /** NodeReal's bundle endpoint with its key (https://bsc-mainnet.nodereal.io/v1/<key>). */
  nodeRealUrl?: string;
  /** Bundle size caps for your tiers, by builder name (48club, blockrazor, nodereal). */
  maxTxs?: Readonly<Record<string, number>>;
  /** Another endpoint for a builder (a regional one), by name. */
  urls?: Readonly<Record<string, string>>;
  /** A builder's `Authorization` header value, by name. */
  authorization?: Readonly<Record<string, string>>;
  /** A builder's gas price floor, wei, by name. */
  minGasPrice?: Readonly<Record<string, bigint>>;
}

/**
 * The builders a profile launches through: its own, NodeReal when its keyed URL is given,
 * each with its cap for your tier. Throws ChainError for a cap on an unknown builder or a
 * cap we cannot honour.
 *
 * @example
 * buildersFor(profiles.bsc, { nodeRealUrl, maxTxs: { blockrazor: 15 } });
 */
export const buildersFor = (
  profile: ChainProfile,
  {
    nodeRealUrl,
    maxTxs = {},
    urls = {},
    authorization = {},
    minGasPrice = {},
  }: BuildersForOptions = {},
): BuilderEndpoint[] => {
  const builders: BuilderEndpoint[] = [
    ...profile.builders,
    ...(nodeRealUrl
      ? [{ name: "nodereal", url: nodeRealUrl, tipAddress: NODEREAL_TIP_ADDRESS, maxTxs: 50 }]
      : []),
  ];
  const known = (name: string) => {
    if (!builders.some((b) => b.name === name))
      throw new ChainError(
        `no builder "${name}" on ${profile.name} (builders: ${builders.map((b) => b.name).join(", ") || "none"})`,
      );
  };
  for (const name of [
    ...Object.keys(urls),
    ...Object.keys(authorization),
    ...Object.keys(minGasPrice),
  ])
    known(name);
  for (const [name, cap] of Object.entries(maxTxs)) {
    known(name);
    const limit = CAP_LIMITS[name];
    if (limit && cap > limit.limit)
      throw new ChainError(`${name} takes at most ${limit.limit} transactions: ${limit.why}`);
    if (!Number.isInteger(cap) || cap < 3)
      throw new ChainError(`${name}'s cap must be a whole number of at least 3 transactions`);
  }
  return builders.map((builder) => ({
    ...builder,
    url: urls[builder.name] ?? builder.url,
    maxTxs: maxTxs[builder.name] ?? builder.maxTxs,
    ...(authorization[builder.name] ? { authorization: authorization[builder.name] } : {}),
    ...(minGasPrice[builder.name] !== undefined ? { minGasPrice: minGasPrice[builder.name] } : {}),
  }));
};

/** A link to a transaction on the profile's explorer, or null on the local chain. */
export const explorerTxUrl = (profile: ChainProfile, hash: string): string | null =>
  profile.explorerUrl ? `${profile.explorerUrl}/tx/${hash}` : null;

/** A token's page of `kind` on this network, or null where there is none. */
export const tokenPageUrl = (
  profile: ChainProfile,
  kind: keyof ChainProfile["tokenPages"],
  token: string,
): string | null => profile.tokenPages[kind]?.replace("{token}", token) ?? null;
