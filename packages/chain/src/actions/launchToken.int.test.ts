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
  keccak256,
  parseEther,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DeployLocalChainReturnType, deployLocalChain } from "../dev/deployLocalChain.ts";
import { devPrivateKey } from "../dev/devAccounts.ts";
import { startDevBuilder } from "../dev/devBuilder.ts";
import { getFreePort } from "../dev/getFreePort.ts";
import { type StartAnvilReturnType, startAnvil } from "../dev/startAnvil.ts";
import { BundleRejectedError, InsufficientFundsError, SimulationRevertError } from "../errors.ts";
import type { BuilderEndpoint } from "../profiles.ts";
import { getLaunchFee } from "./getLaunchFee.ts";
import { launchToken } from "./launchToken.ts";

const TIP: Address = "0x000000000000000000000000000000000000bEEF";
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
    blockTime: 1,
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
const DEFAULT_FEE = [100n, 10n ** 14n] as const;

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
    creator: creator as PrivateKeyAccount,
    tipPayer: tipPayer as PrivateKeyAccount,
    createArg: args,
    signature: signature as Hex,
    launchFee: await getLaunchFee(client, { launchpad: contracts.launchpad }),
    preSale: parseEther("0.1"),
    buyers,
    tip: parseEther("0.001"),
  };
};

const balanceOf = (token: Address, owner: Address) =>
  client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

/** Every block in [from, to] and the hashes it holds, lower-cased. */
const hashesInBlocks = async (from: bigint, to: bigint) => {
  const seen: string[] = [];
  for (let n = from; n <= to; n++) {
    const block = await client.getBlock({ blockNumber: n });
    seen.push(...block.transactions.map((hash) => hash.toLowerCase()));
  }
  return seen;
};

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

  it("buys its own token when another launch lands between its simulation and its bundle", async () => {
    const dev = await builder(60);
    const first = await prepare(2, () => parseEther("0.01"));
    const second = await prepare(2, () => parseEther("0.01"));
    let firstToken: Address | null = null;
    const report = await launchToken({
      ...second,
      builders: [dev],
      onStep: async (message) => {
        // The second launch is simulated and signed for the address it was given; the first
        // lands before its bundle goes out.
        if (message.startsWith("PASSED simulation"))
          firstToken = (await launchToken({ ...first, builders: [dev] })).token;
      },
    });
    expect(firstToken).not.toBeNull();
    expect(report.token).not.toBe(firstToken);
    for (const { address, amount } of report.quoted)
      expect(await balanceOf(report.token, address)).toBe(amount);
    for (const buyer of second.buyers)
      expect(await balanceOf(firstToken as unknown as Address, buyer.account.address)).toBe(0n);
  });

  it("prices the buys with the launchpad's own fee plan, not a copy of the curve", async () => {
    // 3% and a 0.002 BNB minimum: a TypeScript copy of the 1% curve would over-quote every
    // buy, and with no slippage allowed each one would revert.
    await setTradingFee(300n, parseEther("0.002"));
    try {
      const params = await prepare(5, (i) => parseEther("0.05") + BigInt(i) * parseEther("0.01"));
      const report = await launchToken({
        ...params,
        slippageBps: 0n,
        builders: [await builder(50)],
      });
      expect(report.bundles.map((b) => b.status)).toEqual(["included"]);
      for (const { address, amount } of report.quoted) {
        expect(amount).toBeGreaterThan(0n);
        expect(await balanceOf(report.token, address)).toBe(amount);
      }
    } finally {
      await setTradingFee(...DEFAULT_FEE);
    }
  });

  it("refuses before sending anything when the simulation says a buy would revert", async () => {
    // The first buy fills the curve; the second would find trading closed.
    const params = await prepare(2, () => parseEther("0.5"));
    const [filler, late] = params.buyers;
    if (!filler || !late) throw new Error("no buyers");
    filler.funds = parseEther("30");
    await setBalance(filler.account.address, parseEther("31"));
    const launch = launchToken({ ...params, builders: [await builder(50)] });
    await expect(launch).rejects.toThrow(SimulationRevertError);
    await expect(launch).rejects.toThrow(
      `simulation: the buy by wallet ${late.account.address} would revert: TO: trading is closed`,
    );
    expect(await client.getTransactionCount({ address: params.creator.address })).toBe(0);
  });

  it("splits 80 wallets over bundles of 50 and says which buys shared the create's block", async () => {
    const params = await prepare(80, () => parseEther("0.01"));
    const report = await launchToken({ ...params, builders: [await builder(50)] });
    expect(report.bundles.map((b) => [b.status, b.buyers.length, b.sentTo])).toEqual([
      ["included", 48, ["dev"]],
      ["included", 32, ["dev"]],
    ]);
    expect(report.atomicWithCreate).toEqual(
      params.buyers.slice(0, 48).map((b) => b.account.address),
    );
    const [first, second] = report.bundles;
    if (first?.status !== "included" || second?.status !== "included")
      throw new Error("not included");
    expect(second.blockNumber).toBeGreaterThan(first.blockNumber);
    for (const { address, amount } of report.quoted)
      expect(await balanceOf(report.token, address)).toBe(amount);
  });

  it("lands the bundles after a refused one, with fresh nonces, and reports each honestly", async () => {
    // Cap 5: the create + 3 buys, then 4 + 4 + 1 buys; the deployer pays every tip.
    const params = await prepare(12, () => parseEther("0.01"));
    const victim = params.buyers[4];
    if (!victim) throw new Error("no victim");
    const report = await launchToken({
      ...params,
      tipPayer: params.creator,
      builders: [await builder(5)],
      onStep: async (message) => {
        // Bundle 2's wallet is emptied after the checks, just before the bundle goes out.
        if (message.startsWith("Sending bundle 2/")) await setBalance(victim.account.address, 0n);
      },
    });
    expect(report.bundles.map((b) => [b.status, b.buyers.length])).toEqual([
      ["included", 3],
      ["failed", 4],
      ["included", 4],
      ["included", 1],
    ]);
    const failed = report.bundles[1];
    if (failed?.status !== "failed") throw new Error("bundle 2 did not fail");
    expect(failed.reason).toMatch(
      new RegExp(`^builder dev refused: the buy by wallet ${victim.account.address} was refused: `),
    );
    expect(failed.refusals).toMatchObject([{ builder: "dev", transaction: { index: 1 } }]);
    for (const [i, buyer] of params.buyers.entries()) {
      const held = await balanceOf(report.token, buyer.account.address);
      if (i >= 3 && i < 7) expect(held).toBe(0n);
      else expect(held).toBe(report.quoted[i + 1]?.amount);
    }
    // The create and three tips: bundle 2's tip nonce was handed to bundle 3.
    expect(await client.getTransactionCount({ address: params.creator.address })).toBe(4);
  });

  it("leaves no block with any transaction of a bundle in which one buy reverts, naming it", async () => {
    // Between pricing and inclusion the launchpad raises its minimum fee: the one small buy
    // now only covers the fee (ZA); the large ones are unaffected.
    const params = await prepare(4, (i) => (i === 2 ? parseEther("0.0015") : parseEther("0.5")));
    const victim = params.buyers[2];
    if (!victim) throw new Error("no victim");
    const recorder = await recording(await builder(50));
    const before = await client.getBlockNumber();
    try {
      const launch = launchToken({
        ...params,
        builders: [recorder.endpoint],
        onStep: async (message) => {
          if (message.startsWith("PASSED balance check"))
            await setTradingFee(100n, parseEther("0.002"));
        },
      });
      await expect(launch).rejects.toThrow(BundleRejectedError);
      await expect(launch).rejects.toThrow(
        `builder dev refused: the buy by wallet ${victim.account.address} would revert: ZA: the amount is zero`,
      );
    } finally {
      await setTradingFee(...DEFAULT_FEE);
    }
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const after = await client.getBlockNumber();
    expect(after).toBeGreaterThan(before + 1n);
    const sent = recorder.bundles.flat().map((raw) => keccak256(raw).toLowerCase());
    expect(sent).toHaveLength(6);
    const landed = await hashesInBlocks(before, after);
    expect(sent.filter((hash) => landed.includes(hash))).toEqual([]);
  });

  it("names the wallet and the reason when a builder refuses a buy that would revert", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    // Every buy demands 10% more tokens than the simulation gives: the first one reverts.
    const launch = launchToken({ ...params, slippageBps: -1000n, builders: [await builder(50)] });
    await expect(launch).rejects.toThrow(
      `builder dev refused: the buy by wallet ${params.buyers[0]?.account.address} would revert: Slippage: the price moved past the slippage limit`,
    );
    expect(await client.getTransactionCount({ address: params.creator.address })).toBe(0);
  });

  it("lands one bundle when two builders race for it, voids the other's tip and names the winner", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    const tips: Address[] = [
      "0x000000000000000000000000000000000000a001",
      "0x000000000000000000000000000000000000a002",
    ];
    const turn = { queue: Promise.resolve() as Promise<unknown> };
    const racers = [
      await recording(await builder(50, "alpha", tips[0]), turn),
      await recording(await builder(50, "beta", tips[1]), turn),
    ];
    const report = await launchToken({ ...params, builders: racers.map((r) => r.endpoint) });
    const [bundle] = report.bundles;
    if (bundle?.status !== "included") throw new Error("not included");
    expect(bundle.sentTo).toEqual(["alpha", "beta"]);
    const winner = racers.findIndex((r) => r.endpoint.name === bundle.builder);
    const loser = racers[1 - winner];
    if (winner < 0 || !loser) throw new Error(`no winner: ${bundle.builder}`);
    const block = await client.getBlock({ blockNumber: bundle.blockNumber });
    expect(block.transactions).toHaveLength(5);
    expect(bundle.refusals).toMatchObject([{ builder: loser.endpoint.name }]);

    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await client.getBalance({ address: tips[winner] as Address })).toBe(params.tip);
    expect(await client.getBalance({ address: tips[1 - winner] as Address })).toBe(0n);
    const loserTip = keccak256(loser.bundles[0]?.at(-1) ?? "0x");
    await expect(client.getTransactionReceipt({ hash: loserTip })).rejects.toThrow();
    // The winner's tip used the nonce both tips shared: the loser's can never land.
    expect(await client.getTransactionCount({ address: params.tipPayer.address })).toBe(1);
    for (const { address, amount } of report.quoted)
      expect(await balanceOf(report.token, address)).toBe(amount);
  });

  it("refuses before sending anything when a wallet is short, naming the shortfall", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    const victim = params.buyers[1];
    if (!victim) throw new Error("no buyer");
    await setBalance(victim.account.address, 0n);
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
    await setBalance(params.creator.address, 0n);
    await expect(launchToken({ ...params, builders: [await builder(50)] })).rejects.toThrow(
      new RegExp(`wallet ${params.creator.address} needs 0\\.11\\d* BNB more`),
    );
  });

  it("reports a bundle refused by the builder with the builder's reason", async () => {
    const params = await prepare(2, () => parseEther("0.01"));
    await expect(
      launchToken({ ...params, tip: parseEther("0.0001"), builders: [await builder(50)] }),
    ).rejects.toThrow(/^builder dev refused: bundle tip too low/);
    expect(await client.getTransactionCount({ address: params.creator.address })).toBe(0);
  });
});
