import {
  DEFAULT_LAUNCH_FEE,
  encodeCreateTokenArgs,
  LaunchpadManagerArtifact,
  signCreateTokenArgs,
  type TaxTokenConfig,
} from "@bundler/contracts";
import {
  type Address,
  createPublicClient,
  createTestClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  type Hash,
  http,
  type LocalAccount,
  parseEther,
  parseEventLogs,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { deployLocalChain } from "../dev/deployLocalChain.ts";
import { devPrivateKey } from "../dev/devAccounts.ts";
import { startDevBuilder } from "../dev/devBuilder.ts";
import { getFreePort } from "../dev/getFreePort.ts";
import { startAnvil } from "../dev/startAnvil.ts";
import { sendSigned } from "./signedWrite.ts";

/**
 * Test helper for the trading actions' integration tests: an anvil mining five blocks a second (its dev builder keeps the rhythm; `setBlockTime` changes or pauses it)
 * with the local chain deployed (graduation at `graduationFunds`, 1 BNB by default, so a
 * test can graduate a token cheaply), fresh funded wallets, and tokens created directly
 * with `createToken`.
 *
 * @example
 * const chain = await startTradingTestChain();
 * const token = await chain.createToken();
 * await chain.stop();
 */
/** Five blocks a second: tests wait a fifth as long for each block as at the local chain's one. */
const BLOCK_TIME = 0.2;

export const startTradingTestChain = async ({ graduationFunds = parseEther("1") } = {}) => {
  const chainId = 31337;
  const anvil = await startAnvil({
    port: await getFreePort(),
    chainId,
    blockTime: BLOCK_TIME,
    stateFile: null,
  });
  const signer = privateKeyToAccount(generatePrivateKey());
  const contracts = await deployLocalChain({
    rpcUrl: anvil.rpcUrl,
    deployerKey: devPrivateKey(0),
    launchSigner: signer.address,
    graduationFunds,
  }).catch(async (error: unknown) => {
    await anvil.stop();
    throw error;
  });
  const chain = defineChain({
    id: chainId,
    name: "Local",
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  const client = createPublicClient({
    chain,
    transport: http(anvil.rpcUrl),
    pollingInterval: 100,
    cacheTime: 0,
  });
  const testClient = createTestClient({ chain, mode: "anvil", transport: http(anvil.rpcUrl) });
  let requestId = 1n;

  /** A new wallet holding `balance` BNB. */
  const wallet = async (balance = parseEther("10")): Promise<LocalAccount> => {
    const account = privateKeyToAccount(generatePrivateKey());
    await testClient.setBalance({ address: account.address, value: balance });
    return account;
  };

  /** A fresh token, created by a new wallet, nothing bought yet; a type-5 tax token with `tax`. */
  const createToken = async ({ tax }: { tax?: TaxTokenConfig } = {}): Promise<Address> => {
    const creator = await wallet();
    const args = encodeCreateTokenArgs({
      name: "Trade Test",
      symbol: "TRADE",
      launchTime: 0n,
      requestId: requestId++,
      preSale: 0n,
      creator: creator.address,
      ...(tax ? { tax } : {}),
    });
    const signature = await signCreateTokenArgs({
      signer,
      chainId,
      launchpad: contracts.launchpad,
      args,
    });
    const receipt = await sendSigned(client, {
      account: creator,
      chainId,
      nonce: 0,
      gas: 6_000_000n,
      gasPrice: await client.getGasPrice(),
      to: contracts.launchpad,
      value: DEFAULT_LAUNCH_FEE,
      data: encodeFunctionData({
        abi: LaunchpadManagerArtifact.abi,
        functionName: "createToken",
        args: [args, signature],
      }),
      context: "create",
    });
    const [created] = parseEventLogs({
      abi: LaunchpadManagerArtifact.abi,
      eventName: "TokenCreate",
      logs: receipt.logs,
    });
    if (!created) throw new Error("createToken emitted no TokenCreate");
    return created.args.token;
  };

  /**
   * The launchpad's owner-only test hook: gives `token` another template (X Mode, a creator
   * type) or makes it a TokenManager V1 token (`version` 1).
   */
  const setTokenKind = async (token: Address, kind: { template?: bigint; version?: 1n | 2n }) => {
    const owner = privateKeyToAccount(devPrivateKey(0));
    await sendSigned(client, {
      account: owner,
      chainId,
      nonce: await client.getTransactionCount({ address: owner.address, blockTag: "pending" }),
      gas: 200_000n,
      gasPrice: await client.getGasPrice(),
      to: contracts.launchpad,
      value: 0n,
      data: encodeFunctionData({
        abi: LaunchpadManagerArtifact.abi,
        functionName: "setTokenKind",
        args: [token, kind.template ?? 0n, kind.version ?? 2n],
      }),
      context: "set token kind",
    });
  };

  const tokenBalance = (token: Address, owner: Address) =>
    client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner],
    });

  /** BNB the transactions paid for gas. */
  const gasPaid = async (hashes: readonly Hash[]) => {
    let total = 0n;
    for (const hash of hashes) {
      const receipt = await client.getTransactionReceipt({ hash });
      total += receipt.gasUsed * receipt.effectiveGasPrice;
    }
    return total;
  };

  // The dev builder keeps the rhythm from here (anvil's own interval takes whole seconds).
  const builder = await startDevBuilder({
    rpcUrl: anvil.rpcUrl,
    tipAddress: "0x000000000000000000000000000000000000bEEF",
    minTip: 0n,
    maxTxs: 100,
    blockTime: BLOCK_TIME,
  });
  /** Seconds between blocks from now on; 0 pauses mining (blocks only on `testClient.mine`). */
  const setBlockTime = async (seconds = BLOCK_TIME) => {
    await fetch(builder.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "dev_setBlockTime",
        params: [seconds],
      }),
    });
  };

  return {
    client,
    testClient,
    rpcUrl: anvil.rpcUrl,
    contracts,
    wallet,
    createToken,
    setTokenKind,
    tokenBalance,
    gasPaid,
    setBlockTime,
    stop: async () => {
      await builder.close();
      await anvil.stop();
    },
  };
};

export type TradingTestChain = Awaited<ReturnType<typeof startTradingTestChain>>;
