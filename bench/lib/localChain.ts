// A fresh local chain for chain benchmarks: anvil (in memory, a port in the bench range),
// the local contracts, a dev builder, and helpers to fund wallets and prepare launches.
import {
  type DeployLocalChainReturnType,
  deployLocalChain,
  devPrivateKey,
  type LaunchTokenParameters,
  rpcBatch,
  type StartAnvilReturnType,
  type StartDevBuilderReturnType,
  startAnvil,
  startDevBuilder,
} from "@bundler/chain";
import { encodeCreateTokenArgs, signCreateTokenArgs } from "@bundler/contracts";
import { type Address, type Hex, parseEther } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { freePort } from "./server.ts";

export const CHAIN_ID = 31337;
export const TIP_ADDRESS: Address = "0x000000000000000000000000000000000000bEEF";

export interface BenchChain {
  rpcUrl: string;
  anvil: StartAnvilReturnType;
  contracts: DeployLocalChainReturnType;
  builder: StartDevBuilderReturnType & { maxTxs: number };
  launchSigner: PrivateKeyAccount;
  close(): Promise<void>;
}

/** anvil (blockTime 1, in memory) + deployLocalChain + a dev builder. */
export const startBenchChain = async (options: { builderMaxTxs: number }): Promise<BenchChain> => {
  const anvil = await startAnvil({
    port: await freePort(),
    chainId: CHAIN_ID,
    blockTime: 1,
    stateFile: null,
  });
  try {
    const launchSigner = privateKeyToAccount(generatePrivateKey());
    const contracts = await deployLocalChain({
      rpcUrl: anvil.rpcUrl,
      deployerKey: devPrivateKey(0),
      launchSigner: launchSigner.address,
    });
    const builder = await startDevBuilder({
      rpcUrl: anvil.rpcUrl,
      port: await freePort(),
      tipAddress: TIP_ADDRESS,
      minTip: parseEther("0.0005"),
      maxTxs: options.builderMaxTxs,
      blockTime: 1,
    });
    let closed: Promise<void> | undefined;
    return {
      rpcUrl: anvil.rpcUrl,
      anvil,
      contracts,
      builder: { ...builder, maxTxs: options.builderMaxTxs },
      launchSigner,
      close: () => {
        closed ??= builder.close().finally(() => anvil.stop());
        return closed;
      },
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
};

/** Sets every balance in one JSON-RPC batch. */
export const setBalances = async (
  rpcUrl: string,
  entries: ReadonlyArray<readonly [Address, bigint]>,
): Promise<void> => {
  const answers = await rpcBatch(
    rpcUrl,
    entries.map(([address, value]) => ({
      method: "anvil_setBalance",
      params: [address, `0x${value.toString(16)}`],
    })),
  );
  const failed = answers.find((answer) => answer.error);
  if (failed) throw new Error(`anvil_setBalance failed: ${failed.error?.message}`);
};

let nextRequestId = 1n;

/**
 * Everything `launchToken` needs except the builders: a funded creator, tip payer and
 * `buyers.length` funded wallets, and create arguments signed by the launch signer.
 */
export const prepareLaunch = async (
  chain: BenchChain,
  options: { buyers: ReadonlyArray<PrivateKeyAccount>; funds: (i: number) => bigint },
): Promise<Omit<LaunchTokenParameters, "builders">> => {
  const creator = privateKeyToAccount(generatePrivateKey());
  const tipPayer = privateKeyToAccount(generatePrivateKey());
  await setBalances(chain.rpcUrl, [
    [creator.address, parseEther("10")],
    [tipPayer.address, parseEther("10")],
    ...options.buyers.map(
      (account, i) => [account.address, options.funds(i) + parseEther("0.1")] as const,
    ),
  ]);
  const preSale = parseEther("0.1");
  const createArg = encodeCreateTokenArgs({
    name: "Bench",
    symbol: "BNCH",
    launchTime: 0n,
    requestId: nextRequestId++,
    preSale,
    creator: creator.address,
  });
  const signature: Hex = await signCreateTokenArgs({
    signer: chain.launchSigner,
    chainId: CHAIN_ID,
    launchpad: chain.contracts.launchpad,
    args: createArg,
  });
  return {
    rpcUrl: chain.rpcUrl,
    chainId: CHAIN_ID,
    launchpad: chain.contracts.launchpad,
    helper: chain.contracts.helper,
    creator,
    createArg,
    signature,
    preSale,
    buyers: options.buyers.map((account, i) => ({ account, funds: options.funds(i) })),
    tipPayer,
    tip: parseEther("0.001"),
  };
};

export const randomAccounts = (count: number): PrivateKeyAccount[] =>
  Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()));

export const median = (values: readonly number[]): number => percentile(values, 50);

/** Nearest-rank percentile. */
export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
};
