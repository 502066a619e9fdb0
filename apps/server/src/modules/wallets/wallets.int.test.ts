import { generateKeyPairSync } from "node:crypto";
import { QUOTAS } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { rowCounts } from "../../test/row-counts.ts";

let app: TestApp;
let key: string;
const call = apiCaller(
  () => app,
  () => key,
);
const spki = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "der" })
  .toString("base64");

beforeAll(async () => {
  app = await createTestApp();
  key = await app.auth.mintKey("user");
});
afterAll(() => app.close());

describe("POST /api/wallets/gen", () => {
  it("refuses a buy range of a billion BNB or more with 400 and stores no key", async () => {
    const before = await rowCounts(app.database.db);
    const answer = await call("POST", "/api/wallets/gen", {
      walletCount: 3,
      minBuyAmount: "0.1",
      maxBuyAmount: "9".repeat(50),
      isPercentage: false,
      publicKey: spki,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      success: false,
      error: "Max buy must be a BNB amount below 1,000,000,000",
      field: "maxBuyAmount",
    });
    expect(await rowCounts(app.database.db)).toEqual(before);
  });
});

describe("the generated wallets quota", () => {
  const generate = (walletCount: number, as: string) =>
    call(
      "POST",
      "/api/wallets/gen",
      { walletCount, minBuyAmount: "0.01", maxBuyAmount: "0.02", publicKey: spki },
      as,
    );

  it("refuses wallets past 2,000 per key in 24 hours with 429, saying what to do, and stores no key", async () => {
    expect(QUOTAS.generatedWalletsPerDay).toBe(2000);
    const owner = await app.auth.mintKey("user");
    for (let i = 0; i < 19; i++) expect((await generate(100, owner)).status).toBe(200);
    expect((await generate(90, owner)).status).toBe(200);
    const before = await rowCounts(app.database.db);
    const refused = await generate(20, owner);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      error:
        "Generating 20 wallets would pass the limit of 2000 per key in 24 hours (1990 generated): generate at most 10, or try again later",
    });
    expect(await rowCounts(app.database.db)).toEqual(before);
    expect((await generate(10, owner)).status).toBe(200);
    expect((await generate(1, owner)).status).toBe(429);
    // Another key has its own 2,000.
    expect((await generate(100, key)).status).toBe(200);
  });

  it("counts only the last 24 hours", async () => {
    const owner = await app.auth.mintKey("user");
    for (let i = 0; i < 20; i++) await generate(100, owner);
    expect((await generate(1, owner)).status).toBe(429);
    const user = await app.auth.authenticate(owner);
    await app.database.db.execute(
      sql`update wallet_keys set created_at = now() - interval '25 hours' where owner_id = ${user?.id}`,
    );
    expect((await generate(1, owner)).status).toBe(200);
  });
});

describe("POST /api/wallets/import", () => {
  it("refuses a key string longer than 100 characters with 400", async () => {
    const before = await rowCounts(app.database.db);
    const answer = await call("POST", "/api/wallets/import", {
      privateKeys: [`0x${"ab".repeat(32)}`, "k".repeat(50_000)],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      success: false,
      error:
        "Private key 2 is longer than 100 characters: check that the keys are separated by commas",
      field: "privateKeys.1",
      row: 2,
    });
    expect(await rowCounts(app.database.db)).toEqual(before);
  });
});
