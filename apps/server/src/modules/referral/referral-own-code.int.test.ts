import { REFERRAL_MESSAGES } from "@bundler/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateAccessKey } from "../../lib/crypto.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { rowCounts } from "../../test/row-counts.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

let devices = 0;
const newDevice = () => `device-own-code-${++devices}`;

const post = async (url: string, payload: object, key?: string) => {
  const response = await app.server.inject({
    method: "POST",
    url,
    payload,
    headers: key ? { "x-auth-key": key } : {},
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

/** A referrer with `code`: a key bought on `deviceId` (or minted, without one). */
const referrer = async (code: string, deviceId?: string) => {
  let key: string;
  if (deviceId) {
    key = generateAccessKey();
    await app.database.db.transaction((tx) =>
      app.auth.createPurchasedKey(tx, { deviceId, referredBy: null }, key),
    );
  } else key = await app.auth.mintKey("user");
  const created = await post("/api/auth/referral/create", { code }, key);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return key;
};

const refusal = { success: false, error: REFERRAL_MESSAGES.ownCode };

describe("a user's own referral code", () => {
  it("is refused for a free key on the device the code's owner bought their key on, and nothing is written", async () => {
    const deviceId = newDevice();
    await referrer("OWNDEV1", deviceId);
    const before = await rowCounts(app.database.db);

    const response = await post("/api/auth/key/generate-free", {
      deviceId,
      userAgent: "vitest",
      referralCode: "owndev1",
    });

    expect(response).toEqual({ status: 400, body: refusal });
    expect(await rowCounts(app.database.db)).toEqual(before);
  });

  it("is refused for a free key asked for with the owner's own access key", async () => {
    const key = await referrer("OWNKEY1");

    const response = await post(
      "/api/auth/key/generate-free",
      { deviceId: newDevice(), userAgent: "vitest", referralCode: "OWNKEY1" },
      key,
    );

    expect(response).toEqual({ status: 400, body: refusal });
  });

  it("is refused for a key purchase by its logged-in owner", async () => {
    const key = await referrer("OWNBUY1");

    const response = await post(
      "/api/auth/payment",
      { deviceId: newDevice(), referralCode: "OWNBUY1" },
      key,
    );

    expect(response).toEqual({ status: 400, body: refusal });
  });

  it("is refused for a key purchase from the device the owner bought their key on", async () => {
    const deviceId = newDevice();
    await referrer("OWNBUY2", deviceId);

    const response = await post("/api/auth/payment", { deviceId, referralCode: "OWNBUY2" });

    expect(response).toEqual({ status: 400, body: refusal });
  });

  it("does not keep anyone else from a free key with it", async () => {
    await referrer("FRIEND1", newDevice());

    const response = await post("/api/auth/key/generate-free", {
      deviceId: newDevice(),
      userAgent: "vitest",
      referralCode: "FRIEND1",
    });

    expect(response.status, JSON.stringify(response.body)).toBe(200);
  });
});
