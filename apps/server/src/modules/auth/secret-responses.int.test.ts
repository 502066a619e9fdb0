import { generateKeyPairSync } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { draftInput } from "../../test/drafts-api.ts";

let testChain: TestChain;
let app: TestApp;
let owner: string;
let superadmin: string;
let draftId: string;
const masterKey = Buffer.alloc(32, 27);

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({
    chain: testChain.chain,
    masterKey,
    treasuryAddress: privateKeyToAccount(generatePrivateKey()).address,
    bodyLimitBytes: 2 * 1024 * 1024,
  });
  owner = await app.auth.mintKey("user");
  superadmin = await app.auth.mintKey("superadmin");
  const draft = await send("POST", "/api/draft/create", draftInput(), owner);
  draftId = draft.json().draftId as string;
  const paying = await send("POST", `/api/draft/${draftId}/payment`, undefined, owner);
  expect(paying.statusCode, paying.body).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

function send(method: "GET" | "POST" | "PUT", url: string, payload?: object, key?: string) {
  return app.server.inject({
    method,
    url,
    headers: key ? { "x-auth-key": key } : {},
    ...(payload ? { payload } : {}),
  });
}

/** Answered 200 with its secret, and marked for no cache to keep. */
const expectSecretAnswer = (
  response: Awaited<ReturnType<typeof send>>,
  secretField: (body: Record<string, unknown>) => unknown,
) => {
  expect(response.statusCode, response.body).toBe(200);
  expect(secretField(response.json())).toBeTruthy();
  expect(response.headers["cache-control"]).toBe("no-store");
};

describe("answers that carry a secret are sent with Cache-Control: no-store", () => {
  it("a draft read with its wallets' private keys", async () => {
    const response = await send("GET", `/api/draft/${draftId}`, undefined, owner);
    expectSecretAnswer(
      response,
      (body) =>
        (body.draft as { deployerWallet?: { privateKey?: string } }).deployerWallet?.privateKey,
    );
  });

  it("an admin's view of a draft's payment key", async () => {
    const response = await send(
      "GET",
      `/api/admin/dashboard/drafts/${draftId}/payment-key?reason=refund`,
      undefined,
      superadmin,
    );
    expectSecretAnswer(response, (body) => body.privateKey);
  });

  it("a key purchase's status", async () => {
    const deviceId = "device-secret-responses-1";
    const started = await send("POST", "/api/auth/payment", { deviceId });
    expect(started.statusCode, started.body).toBe(200);
    const { paymentId } = started.json() as { paymentId: string };
    const response = await send(
      "GET",
      `/api/auth/payment/status?paymentId=${paymentId}&deviceId=${deviceId}`,
    );
    expectSecretAnswer(response, (body) => body.status);
  });

  it("a new free key", async () => {
    const response = await send("POST", "/api/auth/key/generate-free", {
      deviceId: "device-secret-responses-2",
      userAgent: "vitest",
    });
    expectSecretAnswer(response, (body) => body.key);
  });

  it("the account's keys for a backup, refused or not", async () => {
    expectSecretAnswer(
      await send("GET", "/api/auth/account/keys", undefined, owner),
      (body) => (body.keys as unknown[]).length,
    );
    const refused = await send("GET", "/api/auth/account/keys");
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["cache-control"]).toBe("no-store");
  });

  it("a draft saved with its wallets' private keys", async () => {
    expectSecretAnswer(
      await send("POST", "/api/draft/create", draftInput(), owner),
      (body) =>
        (body.draft as { deployerWallet?: { privateKey?: string } }).deployerWallet?.privateKey,
    );
  });

  it("a draft updated, answered with its wallets' private keys", async () => {
    const created = await send("POST", "/api/draft/create", draftInput(), owner);
    const id = created.json().draftId as string;
    expectSecretAnswer(
      await send("PUT", `/api/draft/${id}`, draftInput(), owner),
      (body) =>
        (body.draft as { deployerWallet?: { privateKey?: string } }).deployerWallet?.privateKey,
    );
  });

  it("imported wallets, answered with their private keys", async () => {
    const response = await send(
      "POST",
      "/api/wallets/import",
      { privateKeys: [generatePrivateKey()] },
      owner,
    );
    expectSecretAnswer(response, (body) => (body.wallets as Array<{ privateKey: string }>)[0]);
  });

  it("generated wallets, their keys wrapped for the browser", async () => {
    const spki = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .publicKey.export({ type: "spki", format: "der" })
      .toString("base64");
    const response = await send(
      "POST",
      "/api/wallets/gen",
      { walletCount: 2, minBuyAmount: "0.01", maxBuyAmount: "0.02", publicKey: spki },
      owner,
    );
    expectSecretAnswer(response, (body) => body.encryptedKeys);
  });

  it("but not an answer without a secret (the drafts list)", async () => {
    const response = await send("GET", "/api/draft/list", undefined, owner);
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBeUndefined();
  });
});
