import {
  LaunchpadHelperArtifact,
  LaunchpadManagerArtifact,
  MULTICALL3_ADDRESS,
  Multicall3Artifact,
  UniswapV2FactoryArtifact,
  UniswapV2PairArtifact,
  UniswapV2Router02Artifact,
  WETH9Artifact,
} from "@bundler/contracts";
import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getContractAddress,
  type Hash,
  type Hex,
  http,
  keccak256,
  parseEther,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface DeployLocalChainParameters {
  rpcUrl: string;
  /** A funded key on the local chain; it owns the launchpad and the factory's fee switch. */
  deployerKey: Hex;
  /** The address whose signature `createToken` requires (the server holds its key). */
  launchSigner: Address;
  /** BNB that fills a token's curve and graduates it; default 24 BNB. */
  graduationFunds?: bigint;
}

export interface DeployLocalChainReturnType {
  weth: Address;
  factory: Address;
  router: Address;
  multicall3: Address;
  launchpad: Address;
  helper: Address;
}

/** Uniswap's published init code hash: keccak256 of UniswapV2Pair's creation code. */
const CANONICAL_PAIR_INIT_CODE_HASH =
  "96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f";

/**
 * The router's creation code, made to agree with the pair code our factory deploys.
 *
 * UniswapV2Router02 never asks the factory where a pair is: UniswapV2Library.pairFor
 * recomputes the CREATE2 address from a hash baked into the router's bytecode. If that hash
 * is not keccak256 of the pair creation code embedded in the factory, every router call
 * (addLiquidityETH at graduation, swaps after it) talks to an empty address. The npm
 * artifacts agree today; if a rebuild ever changes the pair's bytecode, we replace the baked
 * hash rather than deploy a router that cannot find its pairs.
 */
export const routerBytecodeFor = (pairInitCodeHash: Hex): Hex => {
  const router = UniswapV2Router02Artifact.bytecode;
  const wanted = pairInitCodeHash.slice(2).toLowerCase();
  if (router.includes(wanted)) return router;
  if (!router.includes(CANONICAL_PAIR_INIT_CODE_HASH)) {
    throw new Error("UniswapV2Router02 bytecode holds no known pair init code hash to patch");
  }
  return router.replaceAll(CANONICAL_PAIR_INIT_CODE_HASH, wanted) as Hex;
};

const pairInitCodeHash = (): Hex => {
  const pair = UniswapV2PairArtifact.bytecode;
  if (!UniswapV2FactoryArtifact.bytecode.includes(pair.slice(2))) {
    throw new Error("UniswapV2Factory does not embed the UniswapV2Pair artifact's creation code");
  }
  return keccak256(pair);
};

const localChain = (id: number, rpcUrl: string): Chain =>
  defineChain({
    id,
    name: "Local",
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });

/**
 * Deploys the local chain's contracts: WETH9, Uniswap V2 factory and router, our launchpad
 * (four.meme TokenManager2 ABI) and helper (Helper3 ABI), and puts Multicall3's runtime code
 * at its canonical address. Two rounds of transactions, so it takes two blocks at most.
 *
 * @example
 * const addresses = await deployLocalChain({ rpcUrl: chain.rpcUrl, deployerKey, launchSigner: signer.address });
 * // { weth, factory, router, multicall3, launchpad, helper }
 */
export const deployLocalChain = async (
  params: DeployLocalChainParameters,
): Promise<DeployLocalChainReturnType> => {
  const account = privateKeyToAccount(params.deployerKey);
  const chainId = await createPublicClient({ transport: http(params.rpcUrl) }).getChainId();
  const chain = localChain(chainId, params.rpcUrl);
  const transport = http(params.rpcUrl);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 100 });
  const wallet = createWalletClient({ account, chain, transport });
  let nonce = await publicClient.getTransactionCount({
    address: account.address,
    blockTag: "pending",
  });

  const deploy = async (name: string, abi: Abi, bytecode: Hex, args: readonly unknown[]) => {
    const address = getContractAddress({ from: account.address, nonce: BigInt(nonce) });
    const hash = await wallet.deployContract({ abi, bytecode, args, nonce: nonce++ });
    return { name, address, hash };
  };
  const confirm = async (deployments: { name: string; hash: Hash }[]) => {
    for (const { name, hash } of deployments) {
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`deploying ${name} reverted (tx ${hash})`);
    }
  };

  const routerBytecode = routerBytecodeFor(pairInitCodeHash());
  const weth = await deploy("WETH9", WETH9Artifact.abi, WETH9Artifact.bytecode, []);
  const factory = await deploy(
    "UniswapV2Factory",
    UniswapV2FactoryArtifact.abi,
    UniswapV2FactoryArtifact.bytecode,
    [account.address],
  );
  const router = await deploy("UniswapV2Router02", UniswapV2Router02Artifact.abi, routerBytecode, [
    factory.address,
    weth.address,
  ]);
  await createTestClient({ chain, mode: "anvil", transport }).setCode({
    address: MULTICALL3_ADDRESS,
    bytecode: Multicall3Artifact.deployedBytecode,
  });
  await confirm([weth, factory, router]);

  // The launchpad's constructor reads the router, so it goes once the router is mined.
  const launchpad = await deploy(
    "LaunchpadManager",
    LaunchpadManagerArtifact.abi,
    LaunchpadManagerArtifact.bytecode,
    [params.launchSigner, router.address, params.graduationFunds ?? parseEther("24")],
  );
  const helper = await deploy(
    "LaunchpadHelper",
    LaunchpadHelperArtifact.abi,
    LaunchpadHelperArtifact.bytecode,
    [launchpad.address],
  );
  await confirm([launchpad, helper]);

  return {
    weth: weth.address,
    factory: factory.address,
    router: router.address,
    multicall3: MULTICALL3_ADDRESS,
    launchpad: launchpad.address,
    helper: helper.address,
  };
};
