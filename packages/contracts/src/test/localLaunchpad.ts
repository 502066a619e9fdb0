import { getFreePort, startAnvil } from "@bundler/chain";
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hash,
  http,
  keccak256,
  type PrivateKeyAccount,
  parseEther,
  parseEventLogs,
  stringToHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
// Test-only reach into the chain package until it exports deployLocalChain from its index.
import { deployLocalChain } from "../../../chain/src/dev/deployLocalChain.ts";
import { MULTICALL3_ADDRESS } from "../addresses.ts";
import {
  type CreateTokenArgs,
  encodeCreateTokenArgs,
  signCreateTokenArgs,
} from "../createTokenArgs.ts";
import { type CurveState, createTokenValue } from "../curve.ts";
import { LaunchpadHelperArtifact, LaunchpadManagerArtifact } from "../generated/artifacts.ts";

/** Anvil's first dev account (mnemonic "test test ... junk"), funded by startAnvil. */
const DEPLOYER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

const managerAbi = LaunchpadManagerArtifact.abi;

/**
 * A fresh anvil in automine mode with the local chain's contracts deployed, plus the little
 * helpers the launchpad's tests share. Call `stop()` in afterAll.
 */
export const startLocalLaunchpad = async (options: { graduationFunds?: bigint } = {}) => {
  const anvil = await startAnvil({
    port: await getFreePort(),
    chainId: 31337,
    blockTime: 1,
    stateFile: null,
  });
  const chain = defineChain({
    id: 31337,
    name: "Local",
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
  const transport = http(anvil.rpcUrl);
  const testClient = createTestClient({ chain, mode: "anvil", transport });
  // startAnvil mines on an interval; tests want each transaction mined as it is sent.
  await testClient.setIntervalMining({ interval: 0 });
  await testClient.setAutomine(true);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 });
  const launchSigner = privateKeyToAccount(generatePrivateKey());
  const addresses = await deployLocalChain({
    rpcUrl: anvil.rpcUrl,
    deployerKey: DEPLOYER_KEY,
    launchSigner: launchSigner.address,
    graduationFunds: options.graduationFunds,
  });
  let nextRequestId = 1n;

  const wallet = (account: PrivateKeyAccount) => createWalletClient({ account, chain, transport });

  /** A deterministic account for `label`, holding `balance` BNB. */
  const account = async (label: string, balance = parseEther("1000")) => {
    const funded = privateKeyToAccount(keccak256(stringToHex(`launchpad-test:${label}`)));
    await testClient.setBalance({ address: funded.address, value: balance });
    return funded;
  };

  /** Waits for a transaction; returns its receipt, the gas it paid and the launchpad's events. */
  const confirm = async (hash: Hash) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return {
      receipt,
      gasCost: receipt.gasUsed * receipt.effectiveGasPrice,
      events: parseEventLogs({ abi: managerAbi, logs: receipt.logs }),
    };
  };

  const signedCreate = async (
    args: Partial<CreateTokenArgs> & { creator: Address },
    signer: PrivateKeyAccount = launchSigner,
  ) => {
    const full: CreateTokenArgs = {
      name: "Moon Cat",
      symbol: "MCAT",
      launchTime: 0n,
      requestId: nextRequestId++,
      preSale: 0n,
      ...args,
    };
    const encoded = encodeCreateTokenArgs(full);
    const signature = await signCreateTokenArgs({
      signer,
      chainId: chain.id,
      launchpad: addresses.launchpad,
      args: encoded,
    });
    return { args: full, encoded, signature };
  };

  /** The launchpad's `_launchFee()` and `_tradingFeeRate()`, read now. */
  const launchFees = async () => {
    const read = (functionName: "_launchFee" | "_tradingFeeRate") =>
      publicClient.readContract({ address: addresses.launchpad, abi: managerAbi, functionName });
    const [launchFee, tradingFeeRate] = await Promise.all([
      read("_launchFee"),
      read("_tradingFeeRate"),
    ]);
    return { launchFee, tradingFeeRate };
  };

  /**
   * createToken from `creator`, signed by the launch signer, sending what four.meme's create
   * guide says (`createTokenValue`) unless `value` says otherwise; returns the new token.
   */
  const createToken = async (
    creator: PrivateKeyAccount,
    args: Partial<CreateTokenArgs> = {},
    value?: bigint,
  ) => {
    const signed = await signedCreate({ ...args, creator: creator.address });
    const { launchFee, tradingFeeRate } = await launchFees();
    const hash = await wallet(creator).writeContract({
      address: addresses.launchpad,
      abi: managerAbi,
      functionName: "createToken",
      args: [signed.encoded, signed.signature],
      value: value ?? createTokenValue({ launchFee, tradingFeeRate, preSale: signed.args.preSale }),
    });
    const result = await confirm(hash);
    const created = result.events.find((e) => e.eventName === "TokenCreate");
    if (!created) throw new Error("createToken emitted no TokenCreate");
    return { ...result, token: created.args.token, args: signed.args, launchFee };
  };

  /**
   * The launchpad's test hook (owner only): gives `token` another template (X Mode, a creator
   * type) or makes it a TokenManager V1 token (`version` 1).
   */
  const setTokenKind = async (token: Address, kind: { template?: bigint; version?: 1n | 2n }) =>
    confirm(
      await wallet(privateKeyToAccount(DEPLOYER_KEY)).writeContract({
        address: addresses.launchpad,
        abi: managerAbi,
        functionName: "setTokenKind",
        args: [token, kind.template ?? 0n, kind.version ?? 2n],
      }),
    );

  /** The TS reference's view of a token, read from the helper. */
  const curveState = async (token: Address): Promise<CurveState> => {
    const info = await publicClient.readContract({
      address: addresses.helper,
      abi: LaunchpadHelperArtifact.abi,
      functionName: "getTokenInfo",
      args: [token],
    });
    return { tradingFeeRate: info[4], minTradingFee: info[5], offers: info[7], maxFunds: info[10] };
  };

  /** BNB the launchpad must hold: every trading token's reserve plus the fees not withdrawn. */
  const expectedLaunchpadBalance = async (tokens: readonly Address[]) => {
    let total = await publicClient.readContract({
      address: addresses.launchpad,
      abi: managerAbi,
      functionName: "feesAccrued",
    });
    for (const token of tokens) {
      const [, , , funds, liquidityAdded] = await publicClient.readContract({
        address: addresses.launchpad,
        abi: managerAbi,
        functionName: "tokens",
        args: [token],
      });
      if (!liquidityAdded) total += funds;
    }
    return total;
  };

  return {
    rpcUrl: anvil.rpcUrl,
    chain,
    publicClient,
    testClient,
    addresses,
    launchSigner,
    deployer: privateKeyToAccount(DEPLOYER_KEY),
    account,
    wallet,
    confirm,
    signedCreate,
    launchFees,
    createToken,
    setTokenKind,
    curveState,
    expectedLaunchpadBalance,
    stop: () => anvil.stop(),
  };
};

export type LocalLaunchpad = Awaited<ReturnType<typeof startLocalLaunchpad>>;

/**
 * The revert string a call fails with, e.g. "GW"; throws if it does not revert.
 *
 * @example
 * expect(await revertReason(publicClient.simulateContract({ ... }))).toBe("GW");
 */
export const revertReason = async (call: Promise<unknown>): Promise<string> => {
  try {
    await call;
  } catch (error) {
    const reverted =
      error instanceof BaseError
        ? error.walk((e) => e instanceof ContractFunctionRevertedError)
        : null;
    if (reverted instanceof ContractFunctionRevertedError) {
      return reverted.reason ?? reverted.data?.errorName ?? reverted.shortMessage;
    }
    throw error;
  }
  throw new Error("expected the call to revert, but it succeeded");
};
