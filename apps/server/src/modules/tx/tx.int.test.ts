import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  http,
  parseAbi,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";

let testChain: TestChain;
let app: TestApp;
let key: string;
const masterKey = Buffer.alloc(32, 5);
const stranger = privateKeyToAccount(generatePrivateKey());
const UNKNOWN_HASH = `0x${"ab".repeat(32)}`;

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({ chain: testChain.chain, masterKey });
  key = await app.auth.mintKey("user");
  await testChain.rpc("anvil_setBalance", [stranger.address, `0x${parseEther("10").toString(16)}`]);
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

const call = async (method: "GET" | "POST", url: string, payload?: object) => {
  const response = await app.server.inject({
    method,
    url,
    headers: { "x-auth-key": key },
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.json() };
};

const wallet = () =>
  createWalletClient({ account: stranger, transport: http(testChain.local.rpcUrl) });

/** A plain transfer, mined. */
const transfer = async (to: Address, value: bigint) => {
  const hash = await wallet().sendTransaction({ chain: null, to, value });
  await testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
  return hash;
};

/** A sell of a token the launchpad never created: mined, and reverted with "Token". */
const revertingSell = async () => {
  const launchpad = testChain.chain.launchpad as Address;
  const hash = await wallet().sendTransaction({
    chain: null,
    to: launchpad,
    gas: 200_000n,
    data: encodeFunctionData({
      abi: parseAbi(["function sellToken(address token, uint256 amount)"]),
      args: [stranger.address, 1_000_000_000n],
    }),
  });
  await testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
  return hash;
};

describe("transaction statuses", () => {
  it("tells success, failure with its reason, and a hash the node never saw", async () => {
    const ok = await transfer(privateKeyToAccount(generatePrivateKey()).address, 1n);
    const bad = await revertingSell();
    const { status, body } = await call("POST", "/api/bundle/tx/status", {
      txHashes: [ok, bad, UNKNOWN_HASH],
    });
    expect(status).toBe(200);
    const [a, b, c] = body.statuses;
    expect(a).toMatchObject({ hash: ok, status: "success", reason: null });
    expect(BigInt(a.blockNumber)).toBeGreaterThan(0n);
    expect(b).toMatchObject({ hash: bad, status: "failed" });
    expect(b.reason).toBe("this token does not belong to the launchpad");
    expect(c).toMatchObject({ hash: UNKNOWN_HASH, status: "error", blockNumber: null });
    expect(c.reason).toMatch(/dropped or never sent/);
  });

  it("refuses a malformed hash with a clear error", async () => {
    const { status, body } = await call("POST", "/api/bundle/tx/status", { txHashes: ["0x12"] });
    expect(status).toBe(400);
    expect(body).toEqual({
      success: false,
      error: expect.stringMatching(/Invalid transaction hash/),
      field: "txHashes.0",
      row: 1,
    });
  });
});

describe("one transaction", () => {
  it("shows a mined transfer with its block, time, value and fee", async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await transfer(to, parseEther("0.25"));
    const { status, body } = await call("GET", `/api/tx/${hash}`);
    expect(status).toBe(200);
    expect(body.transaction).toMatchObject({
      hash,
      status: "success",
      from: stranger.address,
      to,
      value: "0.25",
      reason: null,
    });
    expect(Date.parse(body.transaction.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(Number(body.transaction.fee)).toBeGreaterThan(0);
  });

  it("shows why a failed transaction reverted", async () => {
    const hash = await revertingSell();
    const { body } = await call("GET", `/api/tx/${hash}`);
    expect(body.transaction).toMatchObject({ hash, status: "failed" });
    expect(body.transaction.reason).toBe("this token does not belong to the launchpad");
  });

  it("answers 404 for a hash the chain does not know, or a malformed one", async () => {
    expect((await call("GET", `/api/tx/${UNKNOWN_HASH}`)).status).toBe(404);
    expect((await call("GET", "/api/tx/0x1234")).status).toBe(404);
  });
});
