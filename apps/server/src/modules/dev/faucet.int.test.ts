import { MULTICALL3_ADDRESS } from "@bundler/contracts";
import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { publicCaller } from "../../test/referral.ts";

let testChain: TestChain;
let app: TestApp;
const masterKey = Buffer.alloc(32, 21);
const call = publicCaller(() => app);

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({ chain: testChain.chain, masterKey, faucet: true });
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

describe("the local faucet", () => {
  it("sends test BNB through the transaction manager and answers once it is mined", async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const answer = await call("POST", "/api/dev/faucet", { address: to, amount: "1.5" });
    expect(answer.status).toBe(200);
    expect(await testChain.chain.client.getBalance({ address: to })).toBe(parseEther("1.5"));
    const [row] = (await app.transactions?.byHashes([answer.body.hash as string])) ?? [];
    expect(row).toMatchObject({ purpose: "faucet", status: "mined", to });
  });

  it("gives every one of several requests at once its own nonce", async () => {
    const targets = Array.from(
      { length: 5 },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );
    const answers = await Promise.all(
      targets.map((address, i) =>
        call("POST", "/api/dev/faucet", { address, amount: "0.1" }, `10.0.0.${i}`),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const address of targets)
      expect(await testChain.chain.client.getBalance({ address: address as Address })).toBe(
        parseEther("0.1"),
      );
  });

  it("refuses an address that takes no plain transfer (a contract), saying so", async () => {
    const answer = await call("POST", "/api/dev/faucet", {
      address: MULTICALL3_ADDRESS,
      amount: "1",
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      success: false,
      error: "This address does not take a plain BNB transfer (it reverted)",
    });
  });
});
