import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAudit } from "../../db/schema.ts";
import type { KeyPurpose } from "../../lib/key-vault.ts";
import { userIdOf } from "../../test/admin-data.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const get = async (url: string, key?: string) => {
  const response = await app.server.inject({
    method: "GET",
    url,
    headers: key ? { "x-auth-key": key } : {},
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.json() as Record<string, unknown>,
  };
};

const idOf = (key: string) => userIdOf(app, key);

let devices = 0;
const freeKey = async () => {
  const response = await app.server.inject({
    method: "POST",
    url: "/api/auth/key/generate-free",
    payload: { deviceId: `device-account-${++devices}`, userAgent: "vitest" },
  });
  return response.json().key as string;
};

/** Stores one new key of each purpose for `ownerId`: its address, purpose and key. */
const storeKeys = async (ownerId: string, purposes: KeyPurpose[], draftId: string | null = null) =>
  app.vault.store(
    purposes.map((purpose) => ({ privateKey: generatePrivateKey(), purpose })),
    { ownerId, draftId },
  );

describe("GET /api/auth/account", () => {
  it("answers a free key's kind, role and creation date", async () => {
    const key = await freeKey();
    const response = await get("/api/auth/account", key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      account: { kind: "free", role: "user", createdAt: expect.any(String) },
    });
    const age = Date.now() - Date.parse((response.body.account as { createdAt: string }).createdAt);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(60_000);
  });

  it("answers a minted admin key as minted with its role", async () => {
    const key = await app.auth.mintKey("admin");
    const response = await get("/api/auth/account", key);
    expect(response.body.account).toMatchObject({ kind: "minted", role: "admin" });
  });

  it("answers 401 without a key", async () => {
    expect((await get("/api/auth/account")).status).toBe(401);
  });
});

describe("GET /api/auth/account/keys", () => {
  it("answers every wallet key the user owns, of every purpose but payment addresses", async () => {
    const key = await freeKey();
    const owner = await idOf(key);
    const draftId = crypto.randomUUID();
    const own = await storeKeys(owner, ["deployer", "bundle", "tip"], draftId);
    own.push(...(await storeKeys(owner, ["bumper", "dispersal"])));
    await storeKeys(owner, ["payment"], draftId);

    const response = await get("/api/auth/account/keys", key);

    expect(response.status).toBe(200);
    const keys = response.body.keys as Array<{
      address: string;
      purpose: string;
      privateKey: Hex;
      draftId: string | null;
    }>;
    const byAddress = (a: { address: string }, b: { address: string }) =>
      a.address.localeCompare(b.address);
    expect(
      keys
        .map(({ address, purpose, privateKey }) => ({ address, purpose, privateKey }))
        .sort(byAddress),
    ).toEqual(
      own
        .map(({ address, purpose, privateKey }) => ({ address, purpose, privateKey }))
        .sort(byAddress),
    );
    for (const entry of keys) {
      expect(privateKeyToAccount(entry.privateKey).address).toBe(entry.address);
      const saved = ["deployer", "bundle", "tip"].includes(entry.purpose);
      expect(entry.draftId).toBe(saved ? draftId : null);
    }
  });

  it("answers none of another user's keys", async () => {
    const mine = await freeKey();
    const theirs = await freeKey();
    await storeKeys(await idOf(theirs), ["bundle", "deployer"]);

    const response = await get("/api/auth/account/keys", mine);

    expect(response.body).toEqual({ success: true, keys: [] });
  });

  it("answers a key stored twice for one address once", async () => {
    const key = await freeKey();
    const owner = await idOf(key);
    const privateKey = generatePrivateKey();
    await app.vault.store([{ privateKey, purpose: "bundle" }], { ownerId: owner });
    await app.vault.store([{ privateKey, purpose: "bundle" }], { ownerId: owner });

    const response = await get("/api/auth/account/keys", key);

    expect((response.body.keys as unknown[]).length).toBe(1);
  });

  it("is sent with Cache-Control: no-store", async () => {
    const response = await get("/api/auth/account/keys", await freeKey());
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("writes each export to the audit log, with the number of keys and no key", async () => {
    const key = await freeKey();
    const owner = await idOf(key);
    const [stored] = await storeKeys(owner, ["deployer"]);

    await get("/api/auth/account/keys", key);

    const rows = await app.database.db
      .select()
      .from(adminAudit)
      .where(eq(adminAudit.actorId, owner));
    expect(rows).toEqual([
      expect.objectContaining({
        action: "keys_export",
        targetType: "user",
        targetId: owner,
        actorKeyPrefix: key.slice(0, 6),
        details: { keys: 1 },
      }),
    ]);
    expect(JSON.stringify(rows)).not.toContain(stored?.privateKey.slice(2));
  });

  it("answers 401 without a key", async () => {
    expect((await get("/api/auth/account/keys")).status).toBe(401);
  });
});
