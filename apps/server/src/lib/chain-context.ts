import {
  type BuilderEndpoint,
  ChainError,
  type ChainProfile,
  createFourMemeClient,
  type FourMemeClient,
  type GetLaunchFeesReturnType,
  getLaunchFees,
  rpcTransport,
} from "@bundler/chain";
import type { CurveState } from "@bundler/contracts";
import { type Address, createPublicClient, type Hex, type PublicClient } from "viem";
import { type BlockCache, blockCacheFor } from "./block-cache.ts";
import { ServiceUnavailableError } from "./errors.ts";
import { LOCAL_SLOW_TIP_ADDRESS, LOCAL_TIP_ADDRESS, type LocalChain } from "./local-chain.ts";

/** What the chain-backed routes need; absent (tests, no RPC) they answer 503. */
export interface ChainContext {
  profile: ChainProfile;
  rpcUrl: string;
  chainId: number;
  client: PublicClient;
  /**
   * Reads that polling routes share per block (balances, transaction statuses) and final
   * statuses kept for good; sending paths read through `client` instead.
   */
  reads: BlockCache;
  /** The launchpad's token manager; null when this network has none configured. */
  launchpad: Address | null;
  builders: BuilderEndpoint[];
  /**
   * Where createToken's signed arguments come from: four.meme's API when a client is set (the
   * mainnet path, also run locally against a fake of the API in tests), otherwise the local
   * launch signer.
   */
  fourMeme: FourMemeClient | null;
  /** Local only: the key that signs createToken's args (four.meme's role on mainnet). */
  launchSignerKey: Hex | null;
  /**
   * Curve settings for ESTIMATES made before a token exists (amount generation); launches
   * are priced by the node's simulation, never by these.
   */
  curve: Omit<CurveState, "offers">;
  /**
   * The launchpad's `_launchFee()` and `_tradingFeeRate()`, what createToken's value is made
   * of (read from the contract, on every network).
   */
  launchFees: () => Promise<GetLaunchFeesReturnType>;
  /** How long each builder has to answer a bundle, ms (default 15 s). */
  bundleTimeoutMs?: number;
  /**
   * Another address for a builder's bundle status service, by builder name (tests point them
   * at fakes); the services the reference names otherwise (`BUNDLE_STATUS_SERVICES`).
   */
  bundleStatusUrls?: Readonly<Record<string, string>>;
  /**
   * How long a bundle may wait to land, seconds (BUNDLE_WINDOW_SECONDS; default
   * DEFAULT_BUNDLE_WINDOW_SECONDS): bundleWindowBlocks turns it into blocks.
   */
  bundleWindowSeconds?: number;
  /**
   * A window of this many blocks instead, whatever the clock: for tests whose chain moves only
   * when they mine (a block time measured there says nothing).
   */
  fixedWindowBlocks?: bigint;
  /** What buyToken needs besides the launchpad (helper, DEX router, WBNB); absent when unknown. */
  trade?: { helper: Address; router: Address; weth: Address } | null;
}

export const requireChain = (chain: ChainContext | undefined): ChainContext => {
  if (!chain) throw new ServiceUnavailableError("chain unavailable");
  return chain;
};

export const DEFAULT_CURVE: Omit<CurveState, "offers"> = {
  maxFunds: 24n * 10n ** 18n,
  tradingFeeRate: 100n,
  minTradingFee: 10n ** 14n,
};

/**
 * The local profile's context: our launchpad, our dev builder, our launch signer. Every call
 * goes through the dev builder (it passes reads to anvil), so the server's own transfers wait
 * for a bundle being mined instead of slipping into its block. `rpcUrl` (LOCAL_RPC_URL) puts
 * an endpoint in front of the builder for reads and transactions, as a public node stands in
 * front of BSC; bundles still go to the builder.
 */
export const localChainContext = (
  profile: ChainProfile,
  local: Pick<
    LocalChain,
    "builderUrl" | "contracts" | "launchSignerKey" | "graduationFunds" | "slowBuilder"
  >,
  builderMaxTxs: number,
  rpcUrl: string = local.builderUrl,
): ChainContext => {
  const client = createPublicClient({
    transport: rpcTransport(rpcUrl),
    cacheTime: 0,
  }) as PublicClient;
  return {
    profile,
    rpcUrl,
    chainId: profile.chainId,
    client,
    reads: blockCacheFor(client),
    launchpad: local.contracts.launchpad,
    builders: [
      {
        name: "local",
        url: local.builderUrl,
        tipAddress: LOCAL_TIP_ADDRESS,
        maxTxs: builderMaxTxs,
      },
      ...(local.slowBuilder
        ? [
            {
              name: "local-slow",
              url: local.slowBuilder.url,
              tipAddress: LOCAL_SLOW_TIP_ADDRESS,
              maxTxs: local.slowBuilder.maxTxs,
            },
          ]
        : []),
    ],
    fourMeme: null,
    launchSignerKey: local.launchSignerKey,
    curve: { ...DEFAULT_CURVE, maxFunds: local.graduationFunds },
    launchFees: () => getLaunchFees(client, { launchpad: local.contracts.launchpad }),
    trade: {
      helper: local.contracts.helper,
      router: local.contracts.router,
      weth: local.contracts.weth,
    },
  };
};

/**
 * A remote network's context (BSC, testnet): launches need four.meme's signed args.
 * `builders` come from buildersFor (the profile's, NodeReal when keyed, your tiers' caps).
 */
export const remoteChainContext = (
  profile: ChainProfile,
  rpcUrl: string,
  builders: BuilderEndpoint[] = profile.builders,
  fourMemeApiUrl?: string,
): ChainContext => {
  const client = createPublicClient({
    transport: rpcTransport(rpcUrl),
    cacheTime: 0,
  }) as PublicClient;
  return {
    profile,
    rpcUrl,
    chainId: profile.chainId,
    client,
    reads: blockCacheFor(client),
    launchpad: profile.launchpad?.tokenManager ?? null,
    builders,
    fourMeme: createFourMemeClient(fourMemeApiUrl ? { baseUrl: fourMemeApiUrl } : {}),
    launchSignerKey: null,
    curve: DEFAULT_CURVE,
    // TokenManager2 says its fees itself (four.meme's create guide): its config's deployCost
    // is only checked against them.
    launchFees: async () => {
      if (!profile.launchpad)
        throw new ChainError(`no launchpad is configured for ${profile.name}`);
      return getLaunchFees(client, { launchpad: profile.launchpad.tokenManager });
    },
    trade:
      profile.launchpad && profile.dex
        ? {
            helper: profile.launchpad.helper,
            router: profile.dex.router,
            weth: profile.dex.wrappedNative,
          }
        : null,
  };
};
