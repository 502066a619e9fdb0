import {
  encodeCreateTokenArgs,
  LaunchpadManagerArtifact,
  signCreateTokenArgs,
} from "@bundler/contracts";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  maxUint256,
  parseEther,
  stringToHex,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SeenRequest, startCountingProxy } from "../dev/countingProxy.ts";
import { type DeployLocalChainReturnType, deployLocalChain } from "../dev/deployLocalChain.ts";
import { devPrivateKey } from "../dev/devAccounts.ts";
import { startDevBuilder } from "../dev/devBuilder.ts";
import { getFreePort } from "../dev/getFreePort.ts";
import { type StartAnvilReturnType, startAnvil } from "../dev/startAnvil.ts";
import { REVERT_MESSAGES } from "../errors.ts";
import { getTxStatuses } from "./getTxStatuses.ts";
import { launchToken } from "./launchToken.ts";
import { quoteBuy } from "./quoteBuy.ts";

const TIP: Address = "0x000000000000000000000000000000000000bEEF";
const abi = LaunchpadManagerArtifact.abi;
const signer = privateKeyToAccount(generatePrivateKey());
/** Fixed gas: failing transactions are mined (and fail) instead of being refused at estimation. */
const GAS = 300_000n;

let anvil: StartAnvilReturnType;
let contracts: DeployLocalChainReturnType;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let token: Address;
let gasPrice: bigint;
const closers: Array<() => Promise<void>> = [];

const rpc = async <T = unknown>(method: string, params: unknown[] = []): Promise<T> => {
  const response = await fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
};

const funded = async (label: string) => {
  const account = privateKeyToAccount(keccak256(stringToHex(`getTxStatuses.int.test:${label}`)));
  await rpc("anvil_setBalance", [account.address, `0x${parseEther("10").toString(16)}`]);
  return account;
};

/** Signs offline with an explicit nonce and a fixed gas limit, and sends it raw. */
const send = async (
  account: PrivateKeyAccount,
  nonce: number,
  tx: { to: Address; data?: Hex; value?: bigint },
): Promise<Hex> => {
  const raw = await account.signTransaction({
    type: "legacy",
    chainId: 31337,
    nonce,
    gas: GAS,
    gasPrice,
    ...tx,
  });
  return rpc<Hex>("eth_sendRawTransaction", [raw]);
};

const buy = (minAmount: bigint) => ({
  to: contracts.launchpad,
  value: parseEther("0.01"),
  data: encodeFunctionData({
    abi,
    functionName: "buyTokenAMAP",
    args: [token, parseEther("0.01"), minAmount],
  }),
});
const sellNothing = () => ({
  to: contracts.launchpad,
  data: encodeFunctionData({ abi, functionName: "sellToken", args: [token, 0n] }),
});

/** Stops all mining (the dev builder keeps the rhythm): sent transactions stay pending until `mine()`. */
let builderUrl = "";
const pauseMining = async () => {
  await fetch(builderUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "dev_setBlockTime", params: [0] }),
  });
};
const mine = () => rpc("evm_mine");

beforeAll(async () => {
  anvil = await startAnvil({
    port: await getFreePort(),
    chainId: 31337,
    blockTime: 0.2,
    stateFile: null,
  });
  closers.push(anvil.stop);
  contracts = await deployLocalChain({
    rpcUrl: anvil.rpcUrl,
    deployerKey: devPrivateKey(0),
    launchSigner: signer.address,
  });
  const builder = await startDevBuilder({
    rpcUrl: anvil.rpcUrl,
    tipAddress: TIP,
    minTip: parseEther("0.0005"),
    maxTxs: 60,
    blockTime: 0.2,
  });
  closers.unshift(builder.close);
  builderUrl = builder.url;
  const creator = await funded("creator");
  const tipPayer = await funded("tipPayer");
  const buyers = [await funded("buyer-0"), await funded("buyer-1")];
  const createArg = encodeCreateTokenArgs({
    name: "Statuses",
    symbol: "STAT",
    launchTime: 0n,
    requestId: 1n,
    preSale: parseEther("0.1"),
    creator: creator.address,
  });
  const report = await launchToken({
    rpcUrl: anvil.rpcUrl,
    chainId: 31337,
    launchpad: contracts.launchpad,
    helper: contracts.helper,
    builders: [{ name: "dev", url: builder.url, tipAddress: TIP, maxTxs: 60 }],
    creator,
    createArg,
    signature: await signCreateTokenArgs({
      signer,
      chainId: 31337,
      launchpad: contracts.launchpad,
      args: createArg,
    }),
    preSale: parseEther("0.1"),
    buyers: buyers.map((account) => ({ account, funds: parseEther("0.01") })),
    tipPayer,
    tip: parseEther("0.001"),
  });
  if (report.bundles[0]?.status !== "included") throw new Error("the launch was not included");
  token = report.token;
  gasPrice = BigInt(await rpc<Hex>("eth_gasPrice")) * 2n;
  // From here on blocks are mined only on demand: nothing lands unless a test says so.
  await pauseMining();

  proxy = await startCountingProxy(anvil.rpcUrl);
  closers.unshift(proxy.close);
});

afterAll(async () => {
  for (const close of closers) await close();
});

beforeEach(() => proxy.reset());

const receiptsOnly = (count: number): SeenRequest => ({
  batch: true,
  methods: Array(count).fill("eth_getTransactionReceipt"),
});

describe("getTxStatuses", () => {
  it("reports pending, success and failed (with the decoded reason) in one call", async () => {
    const trader = await funded("trader");
    const bought = await send(trader, 0, buy(0n));
    const slipped = await send(trader, 1, buy(maxUint256));
    const zeroSell = await send(trader, 2, sellNothing());
    await mine();
    const waiting = await send(trader, 3, { to: TIP, value: 1n });
    const unknown = keccak256(stringToHex("a transaction nobody sent"));
    const block = BigInt(
      (await rpc<{ number: Hex }>("eth_getBlockByNumber", ["latest", false])).number,
    );

    const statuses = await getTxStatuses(proxy.url, {
      hashes: [bought, slipped, waiting, zeroSell, unknown],
    });

    expect(statuses).toEqual([
      { hash: bought, status: "success", blockNumber: block, sale: null },
      { hash: slipped, status: "failed", blockNumber: block, reason: REVERT_MESSAGES.Slippage },
      { hash: waiting, status: "pending" },
      { hash: zeroSell, status: "failed", blockNumber: block, reason: REVERT_MESSAGES.ZA },
      { hash: unknown, status: "pending" },
    ]);
    expect(REVERT_MESSAGES.Slippage).toBe("the price moved past the slippage limit");
    // One batch of receipts for all five; the two failures then cost a fixed extra: one batch
    // tracing them for their reasons (never one request per hash).
    expect(proxy.seen).toEqual([
      receiptsOnly(5),
      { batch: true, methods: ["debug_traceTransaction", "debug_traceTransaction"] },
    ]);

    // Once mined, the pending one turns into a success.
    await mine();
    proxy.reset();
    const [later] = await getTxStatuses(proxy.url, { hashes: [waiting] });
    expect(later).toEqual({
      hash: waiting,
      status: "success",
      blockNumber: block + 1n,
      sale: null,
    });
    expect(proxy.seen).toEqual([receiptsOnly(1)]);
  });

  it("needs exactly one batched request when nothing failed", async () => {
    const trader = await funded("calm-trader");
    const hashes = [await send(trader, 0, buy(0n)), await send(trader, 1, { to: TIP, value: 1n })];
    await mine();
    hashes.push(await send(trader, 2, { to: TIP, value: 2n }));
    hashes.push(keccak256(stringToHex("never sent")));

    const statuses = await getTxStatuses(proxy.url, { hashes });
    expect(statuses.map((s) => s.status)).toEqual(["success", "success", "pending", "pending"]);
    expect(proxy.seen).toEqual([receiptsOnly(4)]);
    await mine();
  });

  it("keeps the request count fixed as the number of hashes and failures grows", async () => {
    const trader = await funded("busy-trader");
    const hashes: Hex[] = [];
    for (let nonce = 0; nonce < 40; nonce++)
      hashes.push(await send(trader, nonce, nonce % 2 === 0 ? buy(0n) : sellNothing()));
    await mine();

    const statuses = await getTxStatuses(proxy.url, { hashes });
    expect(statuses.map((s) => s.status)).toEqual(
      hashes.map((_, i) => (i % 2 === 0 ? "success" : "failed")),
    );
    for (const status of statuses.filter((s) => s.status === "failed"))
      expect(status).toMatchObject({ reason: REVERT_MESSAGES.ZA });
    expect(proxy.seen.map((request) => [request.batch, request.methods.length])).toEqual([
      [true, 40],
      [true, 20],
    ]);
  });

  it("explains a buy that failed only because an earlier one in its block moved the price", async () => {
    const [whale, sniper] = [await funded("whale"), await funded("sniper")];
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    const { amountOut } = await quoteBuy(client, {
      ...contracts,
      token,
      funds: parseEther("0.01"),
    });
    await pauseMining();
    await send(whale, 0, {
      ...buy(0n),
      value: parseEther("1"),
      data: encodeFunctionData({
        abi,
        functionName: "buyTokenAMAP",
        args: [token, parseEther("1"), 0n],
      }),
    });
    // Alone it would get `amountOut`; after the whale's buy it cannot.
    const late = await send(sniper, 0, buy(amountOut));
    await mine();

    const [status] = await getTxStatuses(proxy.url, { hashes: [late] });
    expect(status).toMatchObject({ status: "failed", reason: REVERT_MESSAGES.Slippage });
  });

  it("sends no request for an empty list", async () => {
    expect(await getTxStatuses(proxy.url, { hashes: [] })).toEqual([]);
    expect(proxy.seen).toEqual([]);
  });
});
