import type { Address, LocalAccount } from "viem";
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
  /**
   * 48 Club only: a 48 Soul Point member's key, which signs each bundle (`48spSign`) so 48 Club
   * takes the member's tier of transactions; never logged.
   */
  signer?: LocalAccount;
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
        // Unsigned guests; a 48 Soul Point key raises it to its tier (FORTY_EIGHT_CLUB_TIERS).
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

/** What 48 Club takes from a bundle without a `48spSign` signature. */
export const FORTY_EIGHT_CLUB_UNSIGNED_CAP = 5;

/**
 * 48 Club's caps for signed bundles, by 48 Soul Point tier: a signed guest 6, 48 SP or more
 * 10, 100 SP or more 15, 480 SP or more 50.
 */
export const FORTY_EIGHT_CLUB_TIERS = [6, 10, 15, 50] as const;

/** The cap of 48 Club's signed bundles when no tier is declared: a signed guest's. */
const FORTY_EIGHT_CLUB_SIGNED_DEFAULT = 6;

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
  /** A 48 Soul Point member's key: bundles to 48 Club are signed and take its tier's cap. */
  fortyEightSpSigner?: LocalAccount;
}

/**
 * The builders a profile launches through: its own, NodeReal when its keyed URL is given,
 * each with its cap for your tier. 48 Club takes 5 transactions unsigned; with a 48 Soul Point
 * key its cap is the declared tier (one of FORTY_EIGHT_CLUB_TIERS), 6 when none is declared.
 * Throws ChainError for a setting on an unknown builder or a cap we cannot honour.
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
    fortyEightSpSigner,
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
    ...(fortyEightSpSigner ? ["48club"] : []),
  ])
    known(name);
  for (const [name, cap] of Object.entries(maxTxs)) {
    known(name);
    if (name === "48club") checkFortyEightClubCap(cap, fortyEightSpSigner !== undefined);
    if (!Number.isInteger(cap) || cap < 3)
      throw new ChainError(`${name}'s cap must be a whole number of at least 3 transactions`);
  }
  const signed = (name: string) => name === "48club" && fortyEightSpSigner !== undefined;
  return builders.map((builder) => ({
    ...builder,
    url: urls[builder.name] ?? builder.url,
    maxTxs:
      maxTxs[builder.name] ??
      (signed(builder.name) ? FORTY_EIGHT_CLUB_SIGNED_DEFAULT : builder.maxTxs),
    ...(signed(builder.name) ? { signer: fortyEightSpSigner } : {}),
    ...(authorization[builder.name] ? { authorization: authorization[builder.name] } : {}),
    ...(minGasPrice[builder.name] !== undefined ? { minGasPrice: minGasPrice[builder.name] } : {}),
  }));
};

/** 48 Club's cap: at most 5 unsigned, one of its tiers signed. */
const checkFortyEightClubCap = (cap: number, signed: boolean) => {
  if (!signed && cap > FORTY_EIGHT_CLUB_UNSIGNED_CAP)
    throw new ChainError(
      `48club takes at most ${FORTY_EIGHT_CLUB_UNSIGNED_CAP} transactions from a bundle not signed with 48spSign, and no 48 Soul Point key is configured`,
    );
  if (signed && !(FORTY_EIGHT_CLUB_TIERS as readonly number[]).includes(cap))
    throw new ChainError(
      `48club's cap for signed bundles is its 48 Soul Point tier's: ${FORTY_EIGHT_CLUB_TIERS.join(", ")} (not ${cap})`,
    );
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
