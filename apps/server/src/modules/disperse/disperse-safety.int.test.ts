import type { Dispersal } from "@bundler/shared";
import { type Address, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";

/** Issue 11, item 9: a dispersal whose transfers the node refuses for good still ends, and says why. */
let testChain: TestChain;
let app: TestApp;
let key: string;
const masterKey = Buffer.alloc(32, 13);

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({
    chain: testChain.chain,
    masterKey,
    transactions: { dropAfterMs: 3000, rebroadcastAfterMs: 500 },
  });
  key = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});
afterEach(() => testChain.faults({}));

const call = async (method: "GET" | "POST", url: string, payload?: unknown) => {
  const response = await app.server.inject({
    method,
    url,
    headers: { "x-auth-key": key },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};
const status = async (id: string) =>
  (await call("GET", `/api/wallets/disperse/status?dispersalId=${id}`))
    .body as unknown as Dispersal;

describe("a dispersal the node refuses", () => {
  it("ends failed, with every transfer in a final state, when the node refuses its transfers for good", async () => {
    const destination = privateKeyToAccount(generatePrivateKey()).address;
    const created = await call("POST", "/api/wallets/disperse", {
      wallets: [destination],
      amounts: ["0.01"],
      antiBubblemaps: false,
    });
    expect(created.status).toBe(200);
    const dispersal = created.body as unknown as Dispersal;
    const receiver = dispersal.receiver as Address;
    await testChain.faults({ refuseRawFrom: [receiver] });
    const payer = privateKeyToAccount(generatePrivateKey());
    await testChain.rpc("anvil_setBalance", [payer.address, `0x${parseEther("1").toString(16)}`]);
    const wallet = createWalletClient({ account: payer, transport: http(testChain.local.rpcUrl) });
    const hash = await wallet.sendTransaction({
      chain: null,
      to: receiver,
      value: parseEther(dispersal.amount),
    });
    await testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });

    const deadline = Date.now() + 40_000;
    let now = await status(receiver);
    while (!["completed", "partial", "failed"].includes(now.status) && Date.now() < deadline) {
      await app.disperseEngine?.tick();
      await new Promise((resolve) => setTimeout(resolve, 300));
      now = await status(receiver);
    }
    expect(now.status).toBe("failed");
    expect(now.chains[0]).toMatchObject({ completed: false, failed: true });
    // Nothing went out: the receiver still holds all of it, its key stored.
    expect(await testChain.chain.client.getBalance({ address: receiver })).toBe(
      parseEther(dispersal.amount),
    );
    expect(await app.vault.find(receiver, "dispersal")).toMatch(/^0x/);
  }, 60_000);
});
