import {
  createFourMemeClient,
  type FakeFourMemeServer,
  startFakeFourMemeServer,
} from "@bundler/chain";
import type { Bundle } from "@bundler/shared";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { type LaunchedBundle, launchBundle } from "../../test/bundles.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";

const masterKey = Buffer.alloc(32, 25);
const IMAGE = "https://static.four.meme/market/moon.png";
const TRADE = "https://pancakeswap.finance/swap?outputCurrency=0xmoon";
let testChain: TestChain;
let fourMeme: FakeFourMemeServer;
let app: TestApp;
let key: string;
let known: LaunchedBundle;
let unknown: LaunchedBundle;
/** How often four.meme was asked about the known token. */
let askedForKnown = 0;

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  fourMeme = await startFakeFourMemeServer({
    getTokenInfo: (address) => {
      if (address.toLowerCase() === known?.token.toLowerCase()) askedForKnown += 1;
      return address.toLowerCase() === known?.token.toLowerCase()
        ? {
            address,
            name: "Bundle Moon",
            shortName: "BMOON",
            image: IMAGE,
            status: "TRADE",
            tradeUrl: TRADE,
          }
        : null;
    },
  });
  // Launches that go through four.meme's API (as on BSC) read its public token info too.
  app = await createTestApp({
    chain: {
      ...testChain.chain,
      fourMeme: createFourMemeClient({ baseUrl: fourMeme.url, timeout: 2000 }),
    },
    masterKey,
  });
  key = await app.auth.mintKey("user");
  known = await launchBundle(app, testChain, key, { wallets: 1 });
  unknown = await launchBundle(app, testChain, key, { wallets: 1 });
});
afterAll(async () => {
  await app?.close();
  await fourMeme?.close();
  await testChain?.stop();
});

const call = apiCaller(
  () => app,
  () => key,
);

describe("bundle images and trade links on a launchpad with a public API", () => {
  it("come from four.meme's public token info", async () => {
    const { body } = await call("GET", `/api/bundle/wallets/balances?address=${known.token}`);
    expect(body.bundle).toMatchObject({ image: IMAGE, tradeUrl: TRADE, graduated: false });
  });

  it("are asked of four.meme once per token, not on every balances poll", async () => {
    for (let poll = 0; poll < 3; poll++) {
      const { body } = await call("GET", `/api/bundle/wallets/balances?address=${known.token}`);
      expect(body.bundle).toMatchObject({ image: IMAGE, tradeUrl: TRADE });
    }
    expect(askedForKnown).toBe(1);
  });

  it("fall back to the server's own logo when four.meme does not answer, and the failure is logged", async () => {
    const warn = vi.spyOn(app.server.log, "warn");
    try {
      const { status, body } = await call("GET", "/api/auth/bundles");
      expect(status).toBe(200);
      const bundle = (body.bundles as Bundle[]).find((b) => b.address === unknown.token);
      expect(bundle?.image).toMatch(/^\/api\/draft\/logo\/[0-9a-f]{64}$/);
      expect(bundle?.tradeUrl).toBeNull();
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining(`four.meme token info for ${unknown.token}`),
      );
    } finally {
      warn.mockRestore();
    }
  });
});
