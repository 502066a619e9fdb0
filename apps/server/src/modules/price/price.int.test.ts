import { profiles } from "@bundler/chain";
import { type Address, type Hex, numberToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";

/** A price feed: latestRoundData() answers storage slots 0-4 (roundId, answer, startedAt, updatedAt, answeredInRound). */
const FEED: Address = "0x0000000000000000000000000000000000fee0ed";
const FEED_CODE = `0x${[0, 1, 2, 3, 4].map((i) => `60${i.toString(16).padStart(2, "0")}5460${(i * 32).toString(16).padStart(2, "0")}52`).join("")}60a06000f3`;

let testChain: TestChain;
let feedApp: TestApp;
let localApp: TestApp;
let feedKey: string;
let localKey: string;

beforeAll(async () => {
  const masterKey = Buffer.alloc(32, 9);
  testChain = await startTestChain(masterKey);
  await testChain.rpc("anvil_setCode", [FEED, FEED_CODE]);
  feedApp = await createTestApp({
    masterKey,
    chain: {
      ...testChain.chain,
      profile: { ...profiles.bsc, bnbPrice: { kind: "chainlink", aggregator: FEED } },
    },
  });
  localApp = await createTestApp({ masterKey, chain: testChain.chain, bnbUsdPrice: 612.5 });
  feedKey = await feedApp.auth.mintKey("user");
  localKey = await localApp.auth.mintKey("user");
});
afterAll(async () => {
  await feedApp?.close();
  await localApp?.close();
  await testChain?.stop();
});

const slot = (n: number) => numberToHex(n, { size: 32 });
const word = (value: bigint) => numberToHex(BigInt.asUintN(256, value), { size: 32 }) as Hex;
const setRound = async (answer: bigint, ageSeconds: number) => {
  const updatedAt = BigInt(Math.floor(Date.now() / 1000) - ageSeconds);
  await testChain.rpc("anvil_setStorageAt", [FEED, slot(1), word(answer)]);
  await testChain.rpc("anvil_setStorageAt", [FEED, slot(3), word(updatedAt)]);
};
const price = async (app: TestApp, key: string) => {
  const response = await app.server.inject({
    method: "GET",
    url: "/api/bumper/price",
    headers: { "x-auth-key": key },
  });
  return { status: response.statusCode, body: response.json() };
};

describe("GET /api/bumper/price", () => {
  it("answers the feed's latest round in dollars", async () => {
    await setRound(61_234_000_000n, 30);
    expect(await price(feedApp, feedKey)).toEqual({
      status: 200,
      body: { success: true, price: 612.34, source: "chainlink" },
    });
  });

  it("refuses a stale round instead of showing it", async () => {
    await setRound(61_234_000_000n, 2 * 86_400);
    const { status, body } = await price(feedApp, feedKey);
    expect(status).toBe(503);
    expect(body.error).toMatch(/BNB price unavailable: the BNB\/USD feed is stale/);
  });

  it("refuses a negative answer", async () => {
    await setRound(-1n, 30);
    const { status, body } = await price(feedApp, feedKey);
    expect(status).toBe(503);
    expect(body.error).toMatch(/not a price/);
  });

  it("answers BNB_USD_PRICE on the local chain", async () => {
    expect(await price(localApp, localKey)).toEqual({
      status: 200,
      body: { success: true, price: 612.5, source: "fixed" },
    });
  });

  it("asks for a key", async () => {
    const response = await localApp.server.inject({ method: "GET", url: "/api/bumper/price" });
    expect(response.statusCode).toBe(401);
  });
});
