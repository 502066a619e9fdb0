import { type Address, formatEther, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { launchBundle } from "../../test/bundles.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";

let testChain: TestChain;
let app: TestApp;
let key: string;
let otherKey: string;
const masterKey = Buffer.alloc(32, 6);
const sender = privateKeyToAccount(generatePrivateKey());

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({ chain: testChain.chain, masterKey });
  key = await app.auth.mintKey("user");
  otherKey = await app.auth.mintKey("user");
  await testChain.rpc("anvil_setBalance", [sender.address, `0x${parseEther("10").toString(16)}`]);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

const get = async (url: string, as = key) => {
  const response = await app.server.inject({ method: "GET", url, headers: { "x-auth-key": as } });
  return { status: response.statusCode, body: response.json() };
};

const ownerOf = async (authKey: string) => (await app.auth.authenticate(authKey))?.id as string;

/** A transfer the transaction manager sends and records for `ownerId`, mined. */
const sendRecorded = async (ownerId: string, to: Address, step: string) => {
  const txm = app.transactions;
  if (!txm) throw new Error("the test app has no transaction manager");
  const [row] = await txm.send([
    {
      key: `address-test:${step}`,
      purpose: "payment-refund",
      ownerId,
      account: sender,
      to,
      value: parseEther("0.1"),
      gas: 21_000n,
    },
  ]);
  const hash = row?.txHash as `0x${string}`;
  await testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
  return hash;
};

describe("one address", () => {
  it("reads an account's balance and nonce, and lists only the caller's transactions, newest first", async () => {
    const receiver = privateKeyToAccount(generatePrivateKey()).address;
    const mine = await ownerOf(key);
    const first = await sendRecorded(mine, receiver, "first");
    const second = await sendRecorded(mine, receiver, "second");
    const theirs = await sendRecorded(await ownerOf(otherKey), receiver, "theirs");

    const { status, body } = await get(`/api/tx/address/${receiver.toLowerCase()}`);
    expect(status).toBe(200);
    expect(body.address).toMatchObject({
      address: receiver,
      balance: formatEther(parseEther("0.3")),
      nonce: 0,
      isContract: false,
      token: null,
    });
    expect(body.address.transactions.map((t: { hash: string }) => t.hash)).toEqual([second, first]);
    expect(body.address.transactions[0]).toMatchObject({
      purpose: "payment-refund",
      from: sender.address,
      to: receiver,
    });
    expect(body.address.transactions.some((t: { hash: string }) => t.hash === theirs)).toBe(false);

    const from = await get(`/api/tx/address/${sender.address}`);
    expect(from.body.address.nonce).toBe(3);
    expect(from.body.address.transactions).toHaveLength(2);
    const other = await get(`/api/tx/address/${receiver}`, otherKey);
    expect(other.body.address.transactions.map((t: { hash: string }) => t.hash)).toEqual([theirs]);
  });

  it("tells a launchpad token: name, symbol, supply, not graduated", async () => {
    const { token } = await launchBundle(app, testChain, key, { wallets: 2 });
    const { status, body } = await get(`/api/tx/address/${token}`);
    expect(status).toBe(200);
    expect(body.address).toMatchObject({ address: token, isContract: true, nonce: 1 });
    expect(body.address.token).toMatchObject({ totalSupply: "1000000000", graduated: false });
    expect(body.address.token.name.length).toBeGreaterThan(0);
    expect(body.address.token.symbol.length).toBeGreaterThan(0);
  });

  it("shows a contract the launchpad did not create as a contract without token details", async () => {
    const { body } = await get(`/api/tx/address/${testChain.chain.launchpad}`);
    expect(body.address).toMatchObject({ isContract: true, token: null });
  });

  it("refuses a malformed address with a clear message, and a caller without a key", async () => {
    const { status, body } = await get("/api/tx/address/0x1234");
    expect(status).toBe(400);
    expect(body).toEqual({
      success: false,
      error: expect.stringMatching(/Invalid address/),
      field: "address",
    });
    const anonymous = await app.server.inject({
      method: "GET",
      url: `/api/tx/address/${sender.address}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
