import {
  type BuilderEndpoint,
  buildersFor,
  ChainError,
  checkLaunchBuilders,
  profiles,
} from "@bundler/chain";
import { formatEther, parseEther } from "viem";
import { ConfigError, type Env } from "../config/env.ts";
import { loadFortyEightSpSigner } from "../config/forty-eight-sp-key.ts";
import { type ChainContext, localChainContext, remoteChainContext } from "./chain-context.ts";
import { attachLocalChain, type LocalChain, startLocalChain } from "./local-chain.ts";

/**
 * The profile's builders, NodeReal when keyed, each capped for the configured tier, 48 Club
 * signing with the 48 Soul Point key when one is set. Refused when builders are configured and
 * none can take a launch (a create, one buy and a tip at the profile's gas price floor).
 */
const remoteBuilders = (env: Env) => {
  const profile = profiles[env.CHAIN];
  const fortyEightSpSigner = loadFortyEightSpSigner(env);
  let builders: BuilderEndpoint[];
  try {
    builders = buildersFor(profile, {
      nodeRealUrl: env.NODEREAL_BUNDLE_URL,
      maxTxs: env.BUILDER_MAX_TXS,
      urls: env.BUILDER_URLS,
      authorization: env.BUILDER_AUTH,
      minGasPrice: env.BUILDER_MIN_GAS_GWEI,
      ...(fortyEightSpSigner ? { fortyEightSpSigner } : {}),
    });
  } catch (error) {
    if (error instanceof ChainError)
      throw new ConfigError(
        `invalid configuration: BUILDER_MAX_TXS, BUILDER_URLS, BUILDER_AUTH, BUILDER_MIN_GAS_GWEI or FORTY_EIGHT_SP_KEY: ${error.shortMessage}`,
      );
    throw error;
  }
  try {
    checkLaunchBuilders({ builders, gasPrice: profile.gasPriceFloor });
  } catch (error) {
    if (error instanceof ChainError)
      throw new ConfigError(
        `${error.shortMessage} (raise a cap with BUILDER_MAX_TXS or lower a floor with BUILDER_MIN_GAS_GWEI)`,
      );
    throw error;
  }
  return builders;
};

/** Whether this process starts the local chain itself (not another's, not a remote one). */
export const startsLocalChain = (env: Env): boolean =>
  env.CHAIN === "local" && !env.RPC_URL && !env.LOCAL_BUILDER_URL;

/**
 * The chain the server works on, as `env` says: the local chain started here (anvil, our
 * contracts, the dev builder) or another process's, or a remote network through RPC_URL.
 * The server and `npm run preflight` open it the same way; the caller stops `localChain`.
 */
export const openChain = async (
  env: Env,
  {
    dataDir,
    masterKey,
    databaseExisted,
    say,
  }: { dataDir: string; masterKey: Buffer; databaseExisted: boolean; say: (line: string) => void },
): Promise<{ chain: ChainContext; localChain: LocalChain | undefined; rpcUrl: string }> => {
  const profile = profiles[env.CHAIN];
  let localChain: LocalChain | undefined;
  let rpcUrl = env.RPC_URL ?? profile.rpcUrls[0];
  if (env.CHAIN === "local" && env.LOCAL_BUILDER_URL) {
    // Another process runs the local chain on this data dir: share it.
    localChain = await attachLocalChain({
      dataDir,
      builderUrl: env.LOCAL_BUILDER_URL,
      masterKey,
    });
    rpcUrl = localChain.builderUrl;
  } else if (startsLocalChain(env)) {
    localChain = await startLocalChain({
      dataDir,
      anvilPort: env.ANVIL_PORT,
      blockTime: env.BLOCK_TIME_SECONDS,
      chainId: profile.chainId,
      masterKey,
      databaseExisted,
      builderMaxTxs: env.LOCAL_BUILDER_MAX_TXS,
      builderMinTip: parseEther(env.LOCAL_BUILDER_MIN_TIP),
      builderPort: env.LOCAL_BUILDER_PORT,
      slowBuilderMaxTxs: env.LOCAL_SLOW_BUILDER_MAX_TXS,
      graduationFunds: parseEther(env.GRADUATION_BNB),
    }).catch((error: Error) => {
      if (error.name === "ChainStateError") throw error;
      throw new ConfigError(
        `${error.message} (is another copy running? set ANVIL_PORT to use another port)`,
      );
    });
    // LOCAL_RPC_URL stands in front of the builder for every read and transaction.
    rpcUrl = env.LOCAL_RPC_URL ?? localChain.builderUrl;
    if (localChain.graduationFunds !== parseEther(env.GRADUATION_BNB))
      say(
        `GRADUATION_BNB=${env.GRADUATION_BNB} is not used: the local launchpad was deployed with ${formatEther(localChain.graduationFunds)} BNB (delete ${dataDir} to deploy again).`,
      );
  }
  if (!rpcUrl) {
    await localChain?.stop();
    throw new ConfigError(`RPC_URL is required for CHAIN=${env.CHAIN}`);
  }
  const chain = localChain
    ? localChainContext(profile, localChain, env.LOCAL_BUILDER_MAX_TXS, rpcUrl)
    : remoteChainContext(profile, rpcUrl, remoteBuilders(env), env.FOUR_MEME_API_URL);
  return {
    chain: { ...chain, bundleWindowSeconds: env.BUNDLE_WINDOW_SECONDS },
    localChain,
    rpcUrl,
  };
};
