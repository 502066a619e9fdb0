import { encodeCreateTokenArgs, signCreateTokenArgs } from "@bundler/contracts";
import {
  type Address,
  createPublicClient,
  custom as customTransport,
  erc20Abi,
  http,
  keccak256,
  parseEther,
  stringToHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startCountingProxy } from "../dev/countingProxy.ts";
import { type DeployLocalChainReturnType, deployLocalChain } from "../dev/deployLocalChain.ts";
import { devPrivateKey } from "../dev/devAccounts.ts";
import { startDevBuilder } from "../dev/devBuilder.ts";
import { getFreePort } from "../dev/getFreePort.ts";
import { type StartAnvilReturnType, startAnvil } from "../dev/startAnvil.ts";
import { getBalances } from "./getBalances.ts";
import { launchToken } from "./launchToken.ts";
import { rpcBatch } from "./rpcBatch.ts";

const TIP: Address = "0x000000000000000000000000000000000000bEEF";
const BUYERS = 5;
const signer = privateKeyToAccount(generatePrivateKey());
/** 500 wallets; the first BUYERS also buy the token at launch. */
const wallets = Array.from({ length: 500 }, (_, i) =>
  privateKeyToAccount(keccak256(stringToHex(`getBalances.int.test:${i}`))),
);
const addresses = wallets.map((w) => w.address);
/** Every wallet starts with a different balance: 1 BNB + i milli-BNB + i wei. */
const startBalance = (i: number) => parseEther("1") + BigInt(i) * 10n ** 15n + BigInt(i);
const buyFunds = (i: number) => parseEther("0.01") + BigInt(i) * parseEther("0.001");

let anvil: StartAnvilReturnType;
let contracts: DeployLocalChainReturnType;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let client: ReturnType<typeof createPublicClient>;
let direct: ReturnType<typeof createPublicClient>;
let token: Address;
/** Tokens each buyer was quoted at launch (the buys land exactly on the quote). */
let quoted: bigint[];
const closers: Array<() => Promise<void>> = [];

const setBalances = async (entries: Array<[Address, bigint]>) => {
  const answers = await rpcBatch(
    anvil.rpcUrl,
    entries.map(([address, value]) => ({
      method: "anvil_setBalance",
      params: [address, `0x${value.toString(16)}`],
    })),
  );
  const failed = answers.find((answer) => answer.error);
  if (failed) throw new Error(`anvil_setBalance failed: ${failed.error?.message}`);
};

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

  const creator = privateKeyToAccount(generatePrivateKey());
  const tipPayer = privateKeyToAccount(generatePrivateKey());
  await setBalances([
    ...wallets.map((w, i): [Address, bigint] => [w.address, startBalance(i)]),
    [creator.address, parseEther("10")],
    [tipPayer.address, parseEther("10")],
  ]);
  const createArg = encodeCreateTokenArgs({
    name: "Balances",
    symbol: "BAL",
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
    buyers: wallets.slice(0, BUYERS).map((account, i) => ({ account, funds: buyFunds(i) })),
    tipPayer,
    tip: parseEther("0.001"),
  });
  if (report.bundles[0]?.status !== "included") throw new Error("the launch was not included");
  token = report.token;
  quoted = report.quoted.slice(1).map((q) => q.amount);

  proxy = await startCountingProxy(anvil.rpcUrl);
  closers.unshift(proxy.close);
  client = createPublicClient({ transport: http(proxy.url), cacheTime: 0 });
  direct = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 });
});

afterAll(async () => {
  for (const close of closers) await close();
});

beforeEach(() => proxy.reset());

/** What one eth_getBalance and one balanceOf per address say, straight from anvil. */
const oneByOne = (owners: readonly Address[]) =>
  Promise.all(
    owners.map(async (address) => ({
      address,
      bnb: await direct.getBalance({ address }),
      token: await direct.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address],
      }),
    })),
  );

const expectOneEthCall = () => {
  expect(proxy.seen).toEqual([{ batch: false, methods: ["eth_call"] }]);
};

describe("getBalances", () => {
  it("reads BNB and token balances of 200 wallets in one RPC request", async () => {
    const owners = addresses.slice(0, 200);
    const balances = await getBalances(client, { addresses: owners, token });
    expectOneEthCall();

    expect(balances).toHaveLength(200);
    expect(balances.map((b) => b.address)).toEqual(owners);
    for (const [i, balance] of balances.entries()) {
      if (i < BUYERS) {
        // A buyer paid its funds plus gas, and holds exactly the tokens it was quoted.
        expect(balance.token).toBe(quoted[i]);
        expect(balance.token).toBeGreaterThan(0n);
        expect(balance.bnb).toBeLessThan(startBalance(i) - buyFunds(i));
        expect(balance.bnb).toBeGreaterThan(startBalance(i) - buyFunds(i) - parseEther("0.01"));
      } else {
        expect(balance).toEqual({ address: owners[i], bnb: startBalance(i), token: 0n });
      }
    }
    expect(balances).toEqual(await oneByOne(owners));
  });

  it("reads 500 wallets (BNB and token) in one RPC request too", async () => {
    const balances = await getBalances(client, { addresses, token });
    expectOneEthCall();
    expect(balances).toHaveLength(500);
    expect(balances.slice(0, BUYERS).map((b) => b.token)).toEqual(quoted);
    for (const [i, balance] of balances.entries())
      if (i >= BUYERS)
        expect(balance).toEqual({ address: addresses[i], bnb: startBalance(i), token: 0n });
    expect(balances).toEqual(await oneByOne(addresses));
  });

  it("reads the balances as they were at a given block, in one request or in a batch", async () => {
    const late = privateKeyToAccount(generatePrivateKey()).address;
    // A block mined after `before` freezes its state (anvil_setBalance edits the latest one).
    await direct.request({ method: "evm_mine" as never, params: [] as never });
    const before = await direct.getBlockNumber();
    await direct.request({ method: "evm_mine" as never, params: [] as never });
    await setBalances([[late, parseEther("3")]]);
    await direct.request({ method: "evm_mine" as never, params: [] as never });
    for (const owners of [[late], [...addresses, late]]) {
      const then = await getBalances(client, { addresses: owners, blockNumber: before });
      const now = await getBalances(client, { addresses: owners });
      expect(then.at(-1)?.bnb).toBe(0n);
      expect(now.at(-1)?.bnb).toBe(parseEther("3"));
    }
  });

  it("reads BNB alone (no token) in one RPC request, token balances reported as 0", async () => {
    const owners = addresses.slice(100, 300);
    const balances = await getBalances(client, { addresses: owners });
    expectOneEthCall();
    expect(balances).toEqual(
      owners.map((address, i) => ({ address, bnb: startBalance(100 + i), token: 0n })),
    );
  });

  it("keeps duplicates and order, and counts an unknown address as empty", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const owners = [addresses[7], stranger, addresses[0], addresses[7]] as Address[];
    const balances = await getBalances(client, { addresses: owners, token });
    expectOneEthCall();
    expect(balances).toEqual([
      { address: addresses[7], bnb: startBalance(7), token: 0n },
      { address: stranger, bnb: 0n, token: 0n },
      {
        address: addresses[0],
        bnb: (await oneByOne([addresses[0] as Address]))[0]?.bnb,
        token: quoted[0],
      },
      { address: addresses[7], bnb: startBalance(7), token: 0n },
    ]);
  });

  it("reads 1,200 addresses as three multicalls in one JSON-RPC batch", async () => {
    const owners = [...addresses, ...addresses, ...addresses.slice(0, 200)];
    const balances = await getBalances(client, { addresses: owners, token });
    expect(proxy.seen).toEqual([{ batch: true, methods: ["eth_call", "eth_call", "eth_call"] }]);
    const once = await getBalances(direct, { addresses, token });
    expect(balances).toEqual([...once, ...once, ...once.slice(0, 200)]);
  });

  it("refuses more than 500 addresses over a transport that cannot batch", async () => {
    const custom = createPublicClient({
      transport: customTransport({
        request: ({ method, params }) => direct.request({ method, params }),
      }),
    });
    await expect(
      getBalances(custom, { addresses: [...addresses, addresses[0] as Address] }),
    ).rejects.toThrow("reading more than 500 balances at once needs an http RPC transport");
  });

  it("sends no request at all for an empty address list", async () => {
    expect(await getBalances(client, { addresses: [], token })).toEqual([]);
    expect(await getBalances(client, { addresses: [] })).toEqual([]);
    expect(proxy.seen).toEqual([]);
  });
});
