import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  type DeployLocalChainReturnType,
  deployLocalChain,
  devPrivateKey,
  type StartAnvilReturnType,
  type StartDevBuilderReturnType,
  startAnvil,
  startDevBuilder,
} from "@bundler/chain";
import {
  type Address,
  createPublicClient,
  formatEther,
  type Hex,
  http,
  keccak256,
  parseEther,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** Where the local builder is paid; any address nobody holds a key for. */
export const LOCAL_TIP_ADDRESS: Address = "0x000000000000000000000000000000000000bEEF";

export interface LocalChain {
  rpcUrl: string;
  builderUrl: string;
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

/**
 * The local profile's chain: anvil with its state in `<dataDir>/chain`, our contracts
 * deployed once (addresses recorded beside the state), and the dev builder in front.
 * The launch signer's key is derived from the master key, so nothing else is stored.
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
  /** Used when deploying; a chain already deployed keeps the value it recorded. */
  graduationFunds: bigint;
}): Promise<LocalChain> => {
  const chainDir = path.join(options.dataDir, "chain");
  const stateFile = path.join(chainDir, "state.json");
  const deploymentFile = path.join(chainDir, "deployment.json");
  const reset = `Delete ${options.dataDir} to start again from an empty chain and database (local test data only).`;
  if (options.databaseExisted && (!existsSync(stateFile) || !existsSync(deploymentFile))) {
    throw new ChainStateError(
      `the local chain state in ${chainDir} is gone but the database remembers it. ${reset}`,
    );
  }
  mkdirSync(chainDir, { recursive: true });
  const launchSignerKey = keccak256(
    toHex(Buffer.concat([options.masterKey, Buffer.from("launch-signer")])),
  );

  let anvil: StartAnvilReturnType | undefined;
  let builder: StartDevBuilderReturnType | undefined;
  try {
    anvil = await startAnvil({
      port: options.anvilPort,
      chainId: options.chainId,
      blockTime: options.blockTime,
      stateFile,
    });
    const deployment = existsSync(deploymentFile)
      ? await verifyDeployment(anvil.rpcUrl, deploymentFile, reset)
      : await deploy(anvil.rpcUrl, deploymentFile, {
          chainId: options.chainId,
          launchSignerKey,
          graduationFunds: options.graduationFunds,
        });
    builder = await startDevBuilder({
      rpcUrl: anvil.rpcUrl,
      tipAddress: LOCAL_TIP_ADDRESS,
      minTip: options.builderMinTip,
      maxTxs: options.builderMaxTxs,
      blockTime: options.blockTime,
    });
    const running = { anvil, builder };
    return {
      rpcUrl: anvil.rpcUrl,
      builderUrl: builder.url,
      contracts: deployment.contracts,
      launchSignerKey,
      graduationFunds: parseEther(deployment.graduationBnb ?? DEFAULT_GRADUATION_BNB),
      stop: async () => {
        await running.builder.close();
        await running.anvil.stop();
      },
    };
  } catch (error) {
    await builder?.close();
    await anvil?.stop();
    throw error;
  }
};

const deploy = async (
  rpcUrl: string,
  file: string,
  options: { chainId: number; launchSignerKey: Hex; graduationFunds: bigint },
): Promise<Deployment> => {
  const contracts = await deployLocalChain({
    rpcUrl,
    deployerKey: devPrivateKey(0),
    launchSigner: privateKeyToAccount(options.launchSignerKey).address,
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

const verifyDeployment = async (rpcUrl: string, file: string, reset: string) => {
  const deployment = JSON.parse(readFileSync(file, "utf8")) as Deployment;
  const client = createPublicClient({ transport: http(rpcUrl) });
  const code = await client.getCode({ address: deployment.contracts.launchpad });
  if (!code || code === "0x") {
    throw new ChainStateError(
      `the launchpad recorded in ${file} is not on the local chain (its state was reset). ${reset}`,
    );
  }
  return deployment;
};
