import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  encodeCreateTokenArgs,
  LaunchpadManagerArtifact,
  signCreateTokenArgs,
} from "@bundler/contracts";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseEther,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll } from "vitest";
import { type DeployLocalChainReturnType, deployLocalChain } from "../dev/deployLocalChain.ts";
import { devPrivateKey } from "../dev/devAccounts.ts";
import { startDevBuilder } from "../dev/devBuilder.ts";
import { getFreePort } from "../dev/getFreePort.ts";
import { type StartAnvilReturnType, startAnvil } from "../dev/startAnvil.ts";
import type { BuilderEndpoint } from "../profiles.ts";

export const TIP: Address = "0x000000000000000000000000000000000000bEEF";
export const DEFAULT_FEE = [100n, 10n ** 14n] as const;

/**
 * An anvil with our contracts deployed for one test file (started before its tests, stopped
 * after, with every builder and proxy the tests started), and the helpers that prepare
 * launches and read what landed. `client` is a getter: read it inside a test.
 */
export const useLaunchTokenTestbed = () => {
  const signer = privateKeyToAccount(generatePrivateKey());
  const owner = privateKeyToAccount(devPrivateKey(0));
  let anvil: StartAnvilReturnType;
  let contracts: DeployLocalChainReturnType;
  let client: ReturnType<typeof createPublicClient>;
  const closers: Array<() => Promise<void>> = [];

  const rpc = (method: string, params: unknown[]) =>
    fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
  const setBalance = (address: Address, wei: bigint) =>
    rpc("anvil_setBalance", [address, `0x${wei.toString(16)}`]);

  beforeAll(async () => {
    anvil = await startAnvil({
      port: await getFreePort(),
      chainId: 31337,
      blockTime: 0.2,
      stateFile: null,
    });
    client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 });
    contracts = await deployLocalChain({
      rpcUrl: anvil.rpcUrl,
      deployerKey: devPrivateKey(0),
      launchSigner: signer.address,
    });
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await anvil.stop();
  });

  const builder = async (
    maxTxs: number,
    name = "dev",
    tipAddress: Address = TIP,
  ): Promise<BuilderEndpoint> => {
    const dev = await startDevBuilder({
      rpcUrl: anvil.rpcUrl,
      tipAddress,
      minTip: parseEther("0.0005"),
      maxTxs,
      blockTime: 0.2,
    });
    closers.push(dev.close);
    return { name, url: dev.url, tipAddress, maxTxs };
  };

  /**
   * A pass-through in front of a builder that keeps every bundle's transactions. Builders
   * given one `turn` take bundles one at a time, as one chain makes one block at a time
   * (two dev builders driving one anvil at once would interleave their snapshots).
   */
  const recording = async (target: BuilderEndpoint, turn?: { queue: Promise<unknown> }) => {
    const bundles: Hex[][] = [];
    const server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      const message = JSON.parse(body) as { method: string; params: Array<{ txs: Hex[] }> };
      if (message.method === "eth_sendBundle") bundles.push(message.params[0]?.txs ?? []);
      const forward = () =>
        fetch(target.url, { method: "POST", body }).then(async (upstream) => ({
          status: upstream.status,
          text: await upstream.text(),
        }));
      const answer = turn ? turn.queue.then(forward, forward) : forward();
      if (turn) turn.queue = answer.catch(() => undefined);
      const { status, text } = await answer;
      response.writeHead(status, { "content-type": "application/json" });
      response.end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    return { endpoint: { ...target, url: `http://127.0.0.1:${port}` }, bundles };
  };

  /** The launchpad owner's settings: a mainnet launchpad may price differently from our copy. */
  const setTradingFee = async (rate: bigint, minFee: bigint) => {
    const wallet = createWalletClient({ account: owner, transport: http(anvil.rpcUrl) });
    const hash = await wallet.writeContract({
      chain: null,
      address: contracts.launchpad,
      abi: LaunchpadManagerArtifact.abi,
      functionName: "setTradingFee",
      args: [rate, minFee],
    });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  };

  /** The launchpad owner's creation fee (`_launchFee()`), as four.meme may change its own. */
  const setLaunchFee = async (fee: bigint) => {
    const wallet = createWalletClient({ account: owner, transport: http(anvil.rpcUrl) });
    const hash = await wallet.writeContract({
      chain: null,
      address: contracts.launchpad,
      abi: LaunchpadManagerArtifact.abi,
      functionName: "setLaunchFee",
      args: [fee],
    });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  };

  let requestId = 1n;
  const wallets = async (count: number, balance: bigint) => {
    const accounts = Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()));
    for (const account of accounts) await setBalance(account.address, balance);
    return accounts;
  };

  const prepare = async (buyerCount: number, funds: (i: number) => bigint) => {
    const [creator, tipPayer] = await wallets(2, parseEther("10"));
    const buyers = (await wallets(buyerCount, parseEther("1"))).map((account, i) => ({
      account,
      funds: funds(i),
    }));
    const args = encodeCreateTokenArgs({
      name: "Bundle",
      symbol: "BNDL",
      launchTime: 0n,
      requestId: requestId++,
      preSale: parseEther("0.1"),
      creator: creator?.address as Address,
    });
    const signature = await signCreateTokenArgs({
      signer,
      chainId: 31337,
      launchpad: contracts.launchpad,
      args,
    });
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: 31337,
      launchpad: contracts.launchpad,
      helper: contracts.helper,
      creator: creator as PrivateKeyAccount,
      tipPayer: tipPayer as PrivateKeyAccount,
      createArg: args,
      signature: signature as Hex,
      preSale: parseEther("0.1"),
      buyers,
      tip: parseEther("0.001"),
      // 25 blocks of 0.2 s: a window of 5 s, about BSC's 5 blocks of 0.45 s twice over. The
      // default 5 blocks are 1 s here, and on a machine at load 6 signing and simulating 50 buys
      // took longer once ("bundle expired").
      blocksAhead: 25n,
    };
  };

  const balanceOf = (token: Address, owner: Address) =>
    client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner],
    });

  /** Every block in [from, to] and the hashes it holds, lower-cased. */
  const hashesInBlocks = async (from: bigint, to: bigint) => {
    const seen: string[] = [];
    for (let n = from; n <= to; n++) {
      const block = await client.getBlock({ blockNumber: n });
      seen.push(...block.transactions.map((hash) => hash.toLowerCase()));
    }
    return seen;
  };

  return {
    get client() {
      return client;
    },
    setBalance,
    builder,
    recording,
    setTradingFee,
    setLaunchFee,
    get contracts() {
      return contracts;
    },
    prepare,
    balanceOf,
    hashesInBlocks,
  };
};
