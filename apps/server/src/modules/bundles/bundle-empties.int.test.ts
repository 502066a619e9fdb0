import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../test/app.ts";
import { launchBundle, setBalances } from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { startTestbed, stopTestbed } from "../../test/testbed.ts";

const masterKey = Buffer.alloc(32, 23);
let testChain: TestChain;
let app: TestApp;
let key: string;

beforeAll(async () => {
  ({ testChain, app, key } = await startTestbed(masterKey));
});
afterAll(() => stopTestbed({ app, testChain }));

const call = apiCaller(
  () => app,
  () => key,
);
const balance = (address: Address) => testChain.chain.client.getBalance({ address });
const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

interface EmptyResult {
  wallet: Address;
  success: boolean;
  hash: string | null;
  amount: string;
  error: string | null;
}

describe("POST /api/bundle/wallets/empty", () => {
  it("empties every selected wallet to exactly 0 wei, the receiver getting all but the gas", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 3 });
    const wallets = bundle.wallets.map((w) => w.address);
    const receiver = fresh();
    const { status, body } = await call("POST", "/api/bundle/wallets/empty", {
      address: bundle.token,
      wallets,
      receiver,
    });
    expect(status).toBe(200);
    const results = body.results as EmptyResult[];
    expect(results.map((r) => [r.wallet, r.success, r.error])).toEqual(
      wallets.map((w) => [w, true, null]),
    );
    for (const w of wallets) expect(await balance(w)).toBe(0n);
    const sent = results.reduce((sum, r) => sum + parseEther(r.amount), 0n);
    expect(await balance(receiver)).toBe(sent);
  });

  it("answers a wallet with no BNB with a clear reason while the others are emptied", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const [empty, full] = bundle.wallets.map((w) => w.address) as [Address, Address];
    await setBalances(testChain, [[empty, 0n]]);
    const fullBefore = await balance(full);
    const { status, body } = await call("POST", "/api/bundle/wallets/empty", {
      address: bundle.token,
      wallets: [empty, full],
      receiver: fresh(),
    });
    expect(status).toBe(200);
    const [first, second] = body.results as EmptyResult[];
    expect(first).toEqual({
      wallet: empty,
      success: false,
      hash: null,
      amount: "0",
      error: `wallet ${empty} holds no BNB`,
    });
    expect(second).toMatchObject({ wallet: full, success: true, error: null });
    expect(parseEther(second?.amount ?? "0")).toBeLessThan(fullBefore);
    expect(await balance(full)).toBe(0n);
  });

  it("answers the same empty clicked twice with the first's transfers, sending once", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const before = await balance(wallet);
    const receiver = fresh();
    const payload = { address: bundle.token, wallets: [wallet], receiver };
    const [a, b] = await Promise.all([
      call("POST", "/api/bundle/wallets/empty", payload),
      call("POST", "/api/bundle/wallets/empty", payload),
    ]);
    const [first] = a.body.results as EmptyResult[];
    const [second] = b.body.results as EmptyResult[];
    expect(second?.hash).toBe(first?.hash);
    expect(first?.success).toBe(true);
    expect(await balance(receiver)).toBe(parseEther(first?.amount ?? "0"));
    expect(await balance(wallet)).toBe(0n);
    expect(parseEther(first?.amount ?? "0")).toBeLessThan(before);
  });
});
