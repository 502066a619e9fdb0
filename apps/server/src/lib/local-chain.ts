import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  addressOfKey,
  type DeployLocalChainReturnType,
  deployLocalChain,
  devPrivateKey,
  rpcFetch,
  rpcTransport,
  type StartAnvilReturnType,
  type StartDevBuilderReturnType,
  startAnvil,
  startDevBuilder,
} from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import {
  type Address,
  createPublicClient,
  formatEther,
  type Hex,
  keccak256,
  parseEther,
  toHex,
} from "viem";
import { ConfigError } from "../config/env.ts";
import { displayUrl } from "./display-url.ts";

/** Where the local builder is paid; any address nobody holds a key for. */
export const LOCAL_TIP_ADDRESS: Address = "0x000000000000000000000000000000000000bEEF";
/** Where the second local builder ("local-slow") is paid. */
export const LOCAL_SLOW_TIP_ADDRESS: Address = "0x000000000000000000000000000000000000bEE5";
/** How long the second local builder takes to answer a bundle, as a distant builder does. */
const SLOW_BUILDER_LATENCY_MS = 300;

export interface LocalChain {
  rpcUrl: string;
  builderUrl: string;
  /**
   * The second builder in front of the same node, when one runs: its own tip address and cap,
   * slower to answer (it answers a bundle's hash first and builds the block after, as remote
   * builders do). A bundle goes to both; the first variant to land voids the other.
   */
  slowBuilder?: { url: string; maxTxs: number };
  contracts: DeployLocalChainReturnType;
  launchSignerKey: Hex;
  /** The BNB a curve raises before it graduates, as deployed (wei). */
  graduationFunds: bigint;
  stop(): Promise<void>;
}

export class ChainStateError extends Error {
  override readonly name = "ChainStateError";
}

interface Deployment {
  chainId: number;
  contracts: DeployLocalChainReturnType;
  /** BNB; absent in deployments recorded before it was configurable (they used 24). */
  graduationBnb?: string;
}

const DEFAULT_GRADUATION_BNB = "24";

/** Where the local chain's state and contract addresses are kept, under the data dir. */
const chainFiles = (dataDir: string) => {
  const dir = path.join(dataDir, "chain");
  return {
    dir,
    state: path.join(dir, "state.json"),
    deployment: path.join(dir, "deployment.json"),
  };
};

/** The key that signs createToken's arguments locally: derived, so nothing else is stored. */
const launchSignerKeyFor = (masterKey: Buffer): Hex =>
  keccak256(toHex(Buffer.concat([masterKey, Buffer.from("launch-signer")])));

/** A running chain as the server sees it, from its recorded deployment. */
const localChainOf = (
  urls: { rpcUrl: string; builderUrl: string },
  deployment: Deployment,
  launchSignerKey: Hex,
  stop: () => Promise<void>,
): LocalChain => ({
  ...urls,
  contracts: deployment.contracts,
  launchSignerKey,
  graduationFunds: parseEther(deployment.graduationBnb ?? DEFAULT_GRADUATION_BNB),
  stop,
});

/**
 * The local profile's chain: anvil with its state in `<dataDir>/chain`, our contracts
 * deployed once (addresses recorded beside the state), and the dev builder in front.
 * The launch signer's key is derived from the master key, so nothing else is stored.
 * Other server processes on the same database share it through attachLocalChain.
 */
export const startLocalChain = async (options: {
  dataDir: string;
  anvilPort: number;
  blockTime: number;
  chainId: number;
  masterKey: Buffer;
  databaseExisted: boolean;
  builderMaxTxs: number;
  builderMinTip: bigint;
  /** The dev builder's port (0: a free one). */
  builderPort?: number;
  /** The second builder's cap (0 or unset: none runs). */
  slowBuilderMaxTxs?: number;
  /** Used when deploying; a chain already deployed keeps the value it recorded. */
  graduationFunds: bigint;
}): Promise<LocalChain> => {
  const files = chainFiles(options.dataDir);
  const reset = `Delete ${options.dataDir} to start again from an empty chain and database (local test data only).`;
  if (options.databaseExisted && (!existsSync(files.state) || !existsSync(files.deployment))) {
    throw new ChainStateError(
      `the local chain state in ${files.dir} is gone but the database remembers it. ${reset}`,
    );
  }
  mkdirSync(files.dir, { recursive: true });
  const launchSignerKey = launchSignerKeyFor(options.masterKey);

  let anvil: StartAnvilReturnType | undefined;
  let builder: StartDevBuilderReturnType | undefined;
  let slow: StartDevBuilderReturnType | undefined;
  try {
    anvil = await startAnvil({
      port: options.anvilPort,
      chainId: options.chainId,
      // The dev builder mines the blocks: anvil's own interval takes whole seconds only.
      blockTime: null,
      stateFile: files.state,
    });
    let deployment: Deployment;
    if (existsSync(files.deployment)) {
      deployment = readDeployment(files.deployment);
      if (!(await hasLaunchpad(anvil.rpcUrl, deployment))) {
        throw new ChainStateError(
          `the launchpad recorded in ${files.deployment} is not on the local chain (its state was reset). ${reset}`,
        );
      }
    } else {
      // Each deployment transaction is mined as it is sent: nothing else runs on the chain yet.
      await anvilCall(anvil.rpcUrl, "evm_setAutomine", [true]);
      deployment = await deploy(anvil.rpcUrl, files.deployment, {
        chainId: options.chainId,
        launchSignerKey,
        graduationFunds: options.graduationFunds,
      });
      await anvilCall(anvil.rpcUrl, "evm_setAutomine", [false]);
    }
    builder = await startDevBuilder({
      rpcUrl: anvil.rpcUrl,
      tipAddress: LOCAL_TIP_ADDRESS,
      minTip: options.builderMinTip,
      maxTxs: options.builderMaxTxs,
      blockTime: options.blockTime,
      port: options.builderPort ?? 0,
    });
    if (options.slowBuilderMaxTxs)
      slow = await startDevBuilder({
        rpcUrl: anvil.rpcUrl,
        tipAddress: LOCAL_SLOW_TIP_ADDRESS,
        minTip: options.builderMinTip,
        maxTxs: options.slowBuilderMaxTxs,
        // The first builder keeps the chain's rhythm.
        blockTime: 0,
        latencyMs: SLOW_BUILDER_LATENCY_MS,
      });
    const running = { anvil, builder, slow };
    return {
      ...localChainOf(
        { rpcUrl: anvil.rpcUrl, builderUrl: builder.url },
        deployment,
        launchSignerKey,
        async () => {
          await running.slow?.close();
          await running.builder.close();
          await running.anvil.stop();
        },
      ),
      ...(slow && options.slowBuilderMaxTxs
        ? { slowBuilder: { url: slow.url, maxTxs: options.slowBuilderMaxTxs } }
        : {}),
    };
  } catch (error) {
    await slow?.close();
    await builder?.close();
    await anvil?.stop();
    throw error;
  }
};

/**
 * The local chain another server process started on this data dir (LOCAL_BUILDER_URL): its
 * contracts from `<dataDir>/chain/deployment.json`, checked at `builderUrl` (the dev builder
 * passes reads to anvil), and the same launch signer, derived from the same master key. Nothing
 * is started, so `stop` leaves the chain to the process that owns it.
 */
export const attachLocalChain = async (options: {
  dataDir: string;
  builderUrl: string;
  masterKey: Buffer;
}): Promise<LocalChain> => {
  const files = chainFiles(options.dataDir);
  const builder = `LOCAL_BUILDER_URL (${displayUrl(options.builderUrl)})`;
  if (!existsSync(files.deployment)) {
    throw new ConfigError(
      `LOCAL_BUILDER_URL is set but ${files.deployment} does not exist: give this process the DATA_DIR of the process that started the local chain (it prints its builder URL when ready)`,
    );
  }
  const deployment = readDeployment(files.deployment);
  const launchSignerKey = launchSignerKeyFor(options.masterKey);
  let signer: Address;
  try {
    if (!(await hasLaunchpad(options.builderUrl, deployment))) {
      throw new ConfigError(
        `the launchpad recorded in ${files.deployment} is not on the chain at ${builder}: is it the builder of the process that uses this DATA_DIR?`,
      );
    }
    signer = await createPublicClient({ transport: rpcTransport(options.builderUrl) }).readContract(
      {
        address: deployment.contracts.launchpad,
        abi: LaunchpadManagerArtifact.abi,
        functionName: "launchSigner",
      },
    );
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      `${builder} does not answer: is the process that started the local chain running? (${(error as Error).message.split("\n")[0]})`,
    );
  }
  const expected = addressOfKey(launchSignerKey);
  if (signer.toLowerCase() !== expected.toLowerCase()) {
    throw new ConfigError(
      `the local launchpad's launch signer is ${signer}, but this process's master key derives ${expected}: give every process the same master key (MASTER_KEY, MASTER_KEY_FILE or ${path.join(options.dataDir, "master.key")})`,
    );
  }
  return localChainOf(
    { rpcUrl: options.builderUrl, builderUrl: options.builderUrl },
    deployment,
    launchSignerKey,
    async () => {},
  );
};

const deploy = async (
  rpcUrl: string,
  file: string,
  options: { chainId: number; launchSignerKey: Hex; graduationFunds: bigint },
): Promise<Deployment> => {
  const contracts = await deployLocalChain({
    rpcUrl,
    deployerKey: devPrivateKey(0),
    launchSigner: addressOfKey(options.launchSignerKey),
    graduationFunds: options.graduationFunds,
  });
  const deployment: Deployment = {
    chainId: options.chainId,
    contracts,
    graduationBnb: formatEther(options.graduationFunds),
  };
  writeFileSync(file, `${JSON.stringify(deployment, null, 2)}\n`);
  return deployment;
};

const anvilCall = async (rpcUrl: string, method: string, params: unknown[]): Promise<void> => {
  const response = await rpcFetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
};

const readDeployment = (file: string): Deployment =>
  JSON.parse(readFileSync(file, "utf8")) as Deployment;

/** Whether the recorded launchpad has code on the chain at `rpcUrl`. */
const hasLaunchpad = async (rpcUrl: string, deployment: Deployment): Promise<boolean> => {
  const client = createPublicClient({ transport: rpcTransport(rpcUrl) });
  const code = await client.getCode({ address: deployment.contracts.launchpad });
  return Boolean(code && code !== "0x");
};
