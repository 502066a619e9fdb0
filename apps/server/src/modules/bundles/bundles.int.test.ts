import type { Bundle, WalletBalance } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { type Address, formatEther, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launches } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { type LaunchedBundle, launchBundle, tokenBalance } from "../../test/bundles.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";

const masterKey = Buffer.alloc(32, 21);
let testChain: TestChain;
let app: TestApp;
let key: string;
let otherKey: string;
let mine: LaunchedBundle;
let theirs: LaunchedBundle;

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({ chain: testChain.chain, masterKey });
  key = await app.auth.mintKey("user");
  otherKey = await app.auth.mintKey("user");
  // Wallet 2 buys nothing: it holds no tokens.
  mine = await launchBundle(app, testChain, key, { wallets: 3, idle: [2] });
  theirs = await launchBundle(app, testChain, otherKey, { wallets: 2 });
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

const call = apiCaller(
  () => app,
  () => key,
);
const stranger = () => privateKeyToAccount(generatePrivateKey()).address;
const chainTxCount = async () => {
  const { rows } = await app.database.db.execute(sql`select count(*)::int as n from chain_txs`);
  return (rows[0] as { n: number }).n;
};

/** Token and BNB balances of the bundles' wallets and developers, straight from the chain. */
const snapshot = async () =>
  Promise.all(
    [...mine.wallets, mine.deployer, ...theirs.wallets, theirs.deployer].flatMap((w) => [
      testChain.chain.client.getBalance({ address: w.address }),
      tokenBalance(testChain, mine.token, w.address),
      tokenBalance(testChain, theirs.token, w.address),
    ]),
  );

describe("GET /api/auth/bundles", () => {
  it("lists the caller's launches as bundles with their wallets, developer and logo", async () => {
    const { status, body } = await call("GET", "/api/auth/bundles");
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, total: 1, page: 1, pageSize: 9 });
    const [bundle] = body.bundles as Bundle[];
    expect(bundle).toMatchObject({
      address: mine.token,
      ticker: "BMOON",
      name: "Bundle Moon",
      wallets: mine.wallets.map((w) => w.address),
      walletCount: 3,
      developer: mine.deployer.address,
      graduated: false,
      tradeUrl: null,
      launchpadUrl: null,
    });
    expect(bundle?.image).toMatch(/^\/api\/draft\/logo\/[0-9a-f]{64}$/);
  });

  it("pages the caller's bundles 9 at a time, newest first", async () => {
    const ownerId = (await app.auth.authenticate(key))?.id as string;
    const extra = Array.from({ length: 10 }, (_, i) => ({
      ownerId,
      draftId: mine.draftId,
      tokenAddress: stranger(),
      ticker: `T${i}`,
      wallets: [],
      blockNumber: 1n,
      createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)),
    }));
    const user = await app.auth.mintKey("user");
    const owner = (await app.auth.authenticate(user))?.id as string;
    await app.database.db.insert(launches).values(extra.map((row) => ({ ...row, ownerId: owner })));
    const first = await call("GET", "/api/auth/bundles", undefined, user);
    expect(first.body).toMatchObject({ total: 10, page: 1, pageSize: 9 });
    expect((first.body.bundles as Bundle[]).map((b) => b.ticker)).toEqual([
      "T9",
      "T8",
      "T7",
      "T6",
      "T5",
      "T4",
      "T3",
      "T2",
      "T1",
    ]);
    const second = await call("GET", "/api/auth/bundles?page=2", undefined, user);
    expect((second.body.bundles as Bundle[]).map((b) => b.ticker)).toEqual(["T0"]);
    const past = await call("GET", "/api/auth/bundles?page=3", undefined, user);
    expect(past.body).toMatchObject({ total: 10, page: 3, bundles: [] });
  });

  it("refuses a page that is not a whole number from 1 up", async () => {
    const { status, body } = await call("GET", "/api/auth/bundles?page=0");
    expect(status).toBe(400);
    expect(body.error).toBe("Page must be a whole number from 1 up");
  });
});

describe("GET /api/bundle/wallets/balances", () => {
  it("answers every wallet's tokens (with separators and in units), BNB and the developer's", async () => {
    const { status, body } = await call(
      "GET",
      `/api/bundle/wallets/balances?address=${mine.token.toLowerCase()}`,
    );
    expect(status).toBe(200);
    const balances = body.balances as WalletBalance[];
    expect(balances.map((b) => b.address)).toEqual(mine.wallets.map((w) => w.address));
    for (const [i, entry] of balances.entries()) {
      const units = await tokenBalance(testChain, mine.token, mine.wallets[i]?.address as Address);
      expect(entry.tokenUnits).toBe(units.toString());
      const bnb = await testChain.chain.client.getBalance({
        address: mine.wallets[i]?.address as Address,
      });
      expect(entry.bnbBalance).toBe(formatEther(bnb));
    }
    expect(balances[0]?.tokenBalance).toMatch(/^\d{1,3}(,\d{3})+(\.\d+)?$/);
    expect(balances[2]).toMatchObject({ tokenBalance: "0", tokenUnits: "0" });
    const developer = body.developerBalance as WalletBalance;
    expect(developer.address).toBe(mine.deployer.address);
    expect(BigInt(developer.tokenUnits)).toBeGreaterThan(0n);
    expect(body.totalSupply).toBe(parseEther("1000000000").toString());
    expect((body.bundle as Bundle).address).toBe(mine.token);
  });

  it("refuses an address that is not one", async () => {
    const { status, body } = await call("GET", "/api/bundle/wallets/balances?address=0x12");
    expect(status).toBe(400);
    expect(body.error).toBe("Invalid address format");
  });
});

describe("ownership: another user's bundle, a wallet outside the bundle, an unknown address", () => {
  const cases = () => {
    const theirWallets = theirs.wallets.map((w) => w.address);
    const myWallet = mine.wallets[0]?.address as Address;
    return [
      {
        name: "another user's bundle",
        balances: theirs.token,
        sell: { address: theirs.token, wallets: theirWallets },
        error: "Bundle not found",
      },
      {
        name: "an unknown token",
        balances: stranger(),
        sell: { address: stranger(), wallets: [myWallet] },
        error: "Bundle not found",
      },
      {
        name: "a wallet of another user's bundle",
        balances: null,
        sell: { address: mine.token, wallets: [myWallet, theirWallets[0] as Address] },
        error: `Wallet ${theirWallets[0]} is not in this bundle`,
      },
      {
        name: "an address outside every bundle",
        balances: null,
        sell: { address: mine.token, wallets: [stranger()] },
        error: /^Wallet 0x[0-9a-fA-F]{40} is not in this bundle$/,
      },
    ];
  };

  it("answers 404 on every route and moves nothing", async () => {
    const before = await snapshot();
    const txs = await chainTxCount();
    for (const c of cases()) {
      const requests = [
        ...(c.balances ? [call("GET", `/api/bundle/wallets/balances?address=${c.balances}`)] : []),
        call("POST", "/api/bundle/wallets/sell", { ...c.sell, amount: "100", isPercentage: true }),
        call("POST", "/api/bundle/wallets/empty", { ...c.sell, receiver: stranger() }),
        ...(c.balances
          ? [
              call("POST", "/api/bundle/developer/sell", {
                address: c.balances,
                amount: "50",
                isPercentage: true,
              }),
            ]
          : []),
      ];
      for (const { status, body } of await Promise.all(requests)) {
        expect(status, c.name).toBe(404);
        expect(body.success).toBe(false);
        if (typeof c.error === "string") expect(body.error, c.name).toBe(c.error);
        else expect(body.error, c.name).toMatch(c.error);
      }
    }
    const listed = await call("GET", "/api/auth/bundles", undefined, otherKey);
    expect((listed.body.bundles as Bundle[]).map((b) => b.address)).toEqual([theirs.token]);
    expect(await chainTxCount()).toBe(txs);
    expect(await snapshot()).toEqual(before);
  });
});

describe("bad input", () => {
  it("answers a clear 400 and sends nothing", async () => {
    const txs = await chainTxCount();
    const wallets = [mine.wallets[0]?.address];
    const bad: Array<[string, object, string]> = [
      [
        "/api/bundle/wallets/sell",
        { address: mine.token, wallets, amount: "-5", isPercentage: true },
        "Amount must be a positive number of tokens or a percent",
      ],
      [
        "/api/bundle/wallets/sell",
        { address: mine.token, wallets: [], amount: "5" },
        "Select at least one wallet",
      ],
      [
        "/api/bundle/wallets/sell",
        { address: mine.token, wallets: ["0xnope"], amount: "5" },
        "Wallet 1 must be an address: 0x and 40 hex characters",
      ],
      [
        "/api/bundle/wallets/empty",
        { address: mine.token, wallets, receiver: "0x1234" },
        "Invalid address format",
      ],
      [
        "/api/bundle/wallets/empty",
        { address: mine.token, wallets, receiver: mine.wallets[0]?.address },
        "The receiver cannot be one of the wallets being emptied",
      ],
      [
        "/api/bundle/developer/sell",
        { address: mine.token, amount: "1.2.3", isPercentage: false },
        "Amount must be a positive number of tokens or a percent",
      ],
    ];
    for (const [url, payload, error] of bad) {
      const { status, body } = await call("POST", url, payload);
      expect(status, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(body.error).toBe(error);
    }
    expect(await chainTxCount()).toBe(txs);
  });
});
