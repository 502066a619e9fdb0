import type { BuilderEndpoint, ChainProfile } from "@bundler/chain";
import { type CurveState, DEFAULT_LAUNCH_FEE } from "@bundler/contracts";
import { type Address, createPublicClient, type Hex, http, type PublicClient } from "viem";
import { ServiceUnavailableError } from "./errors.ts";
import { LOCAL_TIP_ADDRESS, type LocalChain } from "./local-chain.ts";

/** What the chain-backed routes need; absent (tests, no RPC) they answer 503. */
export interface ChainContext {
  profile: ChainProfile;
  rpcUrl: string;
  chainId: number;
  client: PublicClient;
  /** The launchpad's token manager; null when this network has none configured. */
  launchpad: Address | null;
  builders: BuilderEndpoint[];
  /** Local only: the key that signs createToken's args (four.meme's role on mainnet). */
  launchSignerKey: Hex | null;
  /** The launchpad's curve settings and its own createToken fee. */
  curve: Omit<CurveState, "offers">;
  launchpadFee: bigint;
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

/** The local profile's context: our launchpad, our dev builder, our launch signer. */
export const localChainContext = (
  profile: ChainProfile,
  local: Pick<LocalChain, "rpcUrl" | "builderUrl" | "contracts" | "launchSignerKey">,
  builderMaxTxs: number,
): ChainContext => ({
  profile,
  rpcUrl: local.rpcUrl,
  chainId: profile.chainId,
  client: createPublicClient({ transport: http(local.rpcUrl), cacheTime: 0 }) as PublicClient,
  launchpad: local.contracts.launchpad,
  builders: [
    { name: "local", url: local.builderUrl, tipAddress: LOCAL_TIP_ADDRESS, maxTxs: builderMaxTxs },
  ],
  launchSignerKey: local.launchSignerKey,
  curve: DEFAULT_CURVE,
  launchpadFee: DEFAULT_LAUNCH_FEE,
  trade: {
    helper: local.contracts.helper,
    router: local.contracts.router,
    weth: local.contracts.weth,
  },
});

/** A remote network's context (BSC, testnet): launches need four.meme's signed args. */
export const remoteChainContext = (profile: ChainProfile, rpcUrl: string): ChainContext => ({
  profile,
  rpcUrl,
  chainId: profile.chainId,
  client: createPublicClient({ transport: http(rpcUrl), cacheTime: 0 }) as PublicClient,
  launchpad: profile.launchpad?.tokenManager ?? null,
  builders: profile.builders,
  launchSignerKey: null,
  curve: DEFAULT_CURVE,
  launchpadFee: DEFAULT_LAUNCH_FEE,
  trade:
    profile.launchpad && profile.dex
      ? {
          helper: profile.launchpad.helper,
          router: profile.dex.router,
          weth: profile.dex.wrappedNative,
        }
      : null,
});
