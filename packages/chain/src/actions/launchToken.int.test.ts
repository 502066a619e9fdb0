import { encodeCreateTokenArgs, signCreateTokenArgs } from "@bundler/contracts";
import { type Address, createPublicClient, erc20Abi, type Hex, http, parseEther } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DeployLocalChainReturnType, deployLocalChain } from "../dev/deployLocalChain.ts";
import { devPrivateKey } from "../dev/devAccounts.ts";
import { startDevBuilder } from "../dev/devBuilder.ts";
import { getFreePort } from "../dev/getFreePort.ts";
import { type StartAnvilReturnType, startAnvil } from "../dev/startAnvil.ts";
import { InsufficientFundsError } from "../errors.ts";
import type { BuilderEndpoint } from "../profiles.ts";
import { launchToken, splitBuyers } from "./launchToken.ts";

const TIP: Address = "0x000000000000000000000000000000000000bEEF";
const signer = privateKeyToAccount(generatePrivateKey());
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

beforeAll(async () => {
  anvil = await startAnvil({
    port: await getFreePort(),
    chainId: 31337,
    blockTime: 1,
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

const builder = async (maxTxs: number): Promise<BuilderEndpoint> => {
  const dev = await startDevBuilder({
    rpcUrl: anvil.rpcUrl,
    tipAddress: TIP,
    minTip: parseEther("0.0005"),
    maxTxs,
    blockTime: 1,
  });
  closers.push(dev.close);
  return { name: "dev", url: dev.url, tipAddress: TIP, maxTxs };
};

let requestId = 1n;
const wallets = async (count: number, balance: bigint) => {
  const accounts = Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()));
  for (const account of accounts)
    await rpc("anvil_setBalance", [account.address, `0x${balance.toString(16)}`]);
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
    creator: creator as PrivateKeyAccount,
    tipPayer: tipPayer as PrivateKeyAccount,
    createArg: args,
    signature: signature as Hex,
    launchFee: parseEther("0.01"),
    preSale: parseEther("0.1"),
    buyers,
    tip: parseEther("0.001"),
    curve: { maxFunds: parseEther("24"), tradingFeeRate: 100n, minTradingFee: 10n ** 14n },
  };
};

const balanceOf = (token: Address, owner: Address) =>
  client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

describe("launchToken", () => {
  it("lands create, 50 buys and the tip in one block, in order, each wallet holding its quote", async () => {
    const params = await prepare(50, (i) => parseEther("0.01") + BigInt(i) * parseEther("0.001"));
    const tipBefore = await client.getBalance({ address: TIP });
    const report = await launchToken({ ...params, builders: [await builder(60)] });
    expect(report.bundles).toHaveLength(1);
    const [bundle] = report.bundles;
    expect(bundle?.status).toBe("included");
    const block = await client.getBlock({
      blockNumber: bundle?.status === "included" ? bundle.blockNumber : 0n,
    });
    expect(block.transactions).toHaveLength(52);
    const txs = await Promise.all(
      block.transactions.map((hash) => client.getTransaction({ hash })),
    );
    expect(txs.map((tx) => tx.from.toLowerCase())).toEqual(
      [
        params.creator.address,
        ...params.buyers.map((b) => b.account.address),
        params.tipPayer.address,
      ].map((a: string) => a.toLowerCase()),
    );
    for (const { address, amount } of report.quoted)
      expect(await balanceOf(report.token, address)).toBe(amount);
    expect(await client.getBalance({ address: TIP })).toBe(tipBefore + parseEther("0.001"));
    expect(report.atomicWithCreate).toHaveLength(50);
  });

  it("splits 80 wallets over bundles of 50 and says which buys shared the create's block", async () => {
    const params = await prepare(80, () => parseEther("0.01"));
    const report = await launchToken({ ...params, builders: [await builder(50)] });
    expect(report.bundles.map((b) => [b.status, b.buyers.length])).toEqual([
      ["included", 48],
      ["included", 32],
    ]);
    expect(report.atomicWithCreate).toEqual(
      params.buyers.slice(0, 48).map((b) => b.account.address),
    );
    const [first, second] = report.bundles;
    if (first?.status !== "included" || second?.status !== "included")
      throw new Error("not included");
    expect(second.blockNumber).toBeGreaterThan(first.blockNumber);
    for (const buyer of params.buyers)
      expect(await balanceOf(report.token, buyer.account.address)).toBeGreaterThan(0n);
  });

  it("leaves no trace when a buy would revert, and names the transaction and reason", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    const head = await client.getBlockNumber();
    // Every buy demands 10% more tokens than the curve gives: the first one reverts.
    const launch = launchToken({ ...params, slippageBps: -1000n, builders: [await builder(50)] });
    await expect(launch).rejects.toThrow(
      /dev: transaction 1 \(0x[0-9a-f]{64}\) would revert: Slippage/,
    );
    expect(await client.getTransactionCount({ address: params.creator.address })).toBe(0);
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(head);
  });

  it("refuses before sending anything when a wallet is short, naming the shortfall", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    const victim = params.buyers[1];
    if (!victim) throw new Error("no buyer");
    // The second buyer's wallet is empty by the time the bundle runs: its buy must fail.
    await rpc("anvil_setBalance", [victim.account.address, "0x0"]);
    const launch = launchToken({ ...params, builders: [await builder(50)] });
    await expect(launch).rejects.toThrow(InsufficientFundsError);
    // Its 0.01 BNB buy plus the gas of that buy.
    await expect(launch).rejects.toThrow(
      new RegExp(`wallet ${victim.account.address} needs 0\\.010\\d+ BNB more$`),
    );
    expect(await client.getTransactionCount({ address: params.creator.address })).toBe(0);
  });

  it("lets the deployer pay the tip, with its nonces in execution order", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    const report = await launchToken({
      ...params,
      tipPayer: params.creator,
      builders: [await builder(50)],
    });
    expect(report.bundles).toMatchObject([{ status: "included" }]);
    expect(await client.getTransactionCount({ address: params.creator.address })).toBe(2);
  });

  it("names an unfunded deployer and its shortfall instead of failing to estimate", async () => {
    const params = await prepare(1, () => parseEther("0.01"));
    await rpc("anvil_setBalance", [params.creator.address, "0x0"]);
    await expect(launchToken({ ...params, builders: [await builder(50)] })).rejects.toThrow(
      new RegExp(`wallet ${params.creator.address} needs 0\\.11\\d* BNB more`),
    );
  });

  it("reports a bundle refused by the builder with the builder's reason", async () => {
    const params = await prepare(2, () => parseEther("0.01"));
    await expect(
      launchToken({ ...params, tip: parseEther("0.0001"), builders: [await builder(50)] }),
    ).rejects.toThrow(/builder refused the bundle: dev: bundle tip too low/);
    expect(await client.getTransactionCount({ address: params.creator.address })).toBe(0);
  });
});

describe("splitBuyers", () => {
  it("keeps the create, the first buys and a tip in the first bundle", () => {
    expect(splitBuyers(50, 52)).toEqual([[0, 50]]);
    expect(splitBuyers(80, 50)).toEqual([
      [0, 48],
      [48, 80],
    ]);
    expect(splitBuyers(48, 50)).toEqual([[0, 48]]);
    expect(splitBuyers(0, 50)).toEqual([[0, 0]]);
  });
});
