import type { AuditEntry } from "@bundler/shared";
import { eq } from "drizzle-orm";
import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminAudit, referralClaims, users } from "../../db/schema.ts";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import { userIdOf } from "../../test/admin-data.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller, draftInput } from "../../test/drafts-api.ts";
import { pendingClaim, referralInfoOf } from "../../test/referral.ts";

let testChain: TestChain;
let app: TestApp;
let superadmin: string;
const masterKey = Buffer.alloc(32, 24);
const treasuryKey = generatePrivateKey();
const A = "/api/admin/dashboard";

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  const treasury = privateKeyToAccount(treasuryKey).address;
  await testChain.rpc("anvil_setBalance", [treasury, `0x${parseEther("5").toString(16)}`]);
  app = await createTestApp({
    chain: testChain.chain,
    masterKey,
    treasuryAddress: treasury,
    treasuryKey,
    bodyLimitBytes: 2 * 1024 * 1024,
  });
  superadmin = await app.auth.mintKey("superadmin");
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});
afterEach(() => disarmFailpoints());

const call = apiCaller(
  () => app,
  () => superadmin,
);
const idOf = (key: string) => userIdOf(app, key);
const auditRows = () => app.database.db.select().from(adminAudit);
const receiver = () => privateKeyToAccount(generatePrivateKey()).address;

/** A user's draft waiting for its launch fee: its payment address and draft id. */
const draftAwaitingPayment = async () => {
  const owner = await app.auth.mintKey("user");
  const draft = await call("POST", "/api/draft/create", draftInput(), owner);
  const draftId = draft.body.draftId as string;
  const paying = await call("POST", `/api/draft/${draftId}/payment`, undefined, owner);
  expect(paying.status, JSON.stringify(paying.body)).toBe(200);
  return { draftId, paymentAddress: paying.body.paymentAddress as Address };
};

describe("the audit log", () => {
  it("records every privileged action with who, what, on which object and why", async () => {
    const me = await idOf(superadmin);
    const target = await idOf(await app.auth.mintKey("user"));
    await call("PUT", `${A}/users/${target}/role`, { role: "admin" });
    await call("PUT", `${A}/users/${target}/active`, { isActive: false });
    const { draftId, paymentAddress } = await draftAwaitingPayment();
    const viewed = await call(
      "GET",
      `${A}/drafts/${draftId}/payment-key?reason=${encodeURIComponent("refund to 0xabc")}`,
    );
    expect(viewed.body.address).toBe(paymentAddress);
    expect(privateKeyToAccount(viewed.body.privateKey as `0x${string}`).address).toBe(
      paymentAddress,
    );
    const paid = await pendingClaim(app, "audited-pay", "0.01", receiver());
    await call("POST", `${A}/claims/${paid.claimId}/complete`);
    const turnedDown = await pendingClaim(app, "audited-no", "0.01", receiver());
    await call("POST", `${A}/claims/${turnedDown.claimId}/reject`, { reason: "duplicate account" });

    const log = await call("GET", `${A}/audit`);
    expect(log.body.pagination).toEqual({ page: 1, limit: 20, total: 5, pages: 1 });
    const entries = log.body.entries as AuditEntry[];
    const actor = { userId: me, keyPrefix: superadmin.slice(0, 6), role: "superadmin" };
    // Newest first.
    expect(entries.map((entry) => entry.action)).toEqual([
      "claim_reject",
      "claim_complete",
      "payment_key_view",
      "active_change",
      "role_change",
    ]);
    expect(entries).toMatchObject([
      {
        actor,
        target: { type: "claim", id: turnedDown.claimId },
        reason: "duplicate account",
        details: { amountWei: parseEther("0.01").toString(), userId: turnedDown.userId },
      },
      {
        actor,
        target: { type: "claim", id: paid.claimId },
        details: { attempt: 1, userId: paid.userId },
      },
      {
        actor,
        target: { type: "draft", id: draftId },
        reason: "refund to 0xabc",
        details: { paymentAddress },
      },
      { actor, target: { type: "user", id: target }, details: { from: true, to: false } },
      { actor, target: { type: "user", id: target }, details: { from: "user", to: "admin" } },
    ]);
    for (const entry of entries) expect(Date.parse(entry.at)).not.toBeNaN();
    expect(JSON.stringify(entries)).not.toContain(viewed.body.privateKey as string);
  });

  it("pages the log newest first", async () => {
    const target = await idOf(await app.auth.mintKey("user"));
    for (let i = 0; i < 21; i++)
      await call("PUT", `${A}/users/${target}/role`, { role: i % 2 ? "user" : "admin" });
    const first = await call("GET", `${A}/audit`);
    const second = await call("GET", `${A}/audit?page=2`);
    const total = (await auditRows()).length;
    expect(first.body.pagination).toMatchObject({ total, pages: Math.ceil(total / 20) });
    const pageOne = first.body.entries as AuditEntry[];
    const pageTwo = second.body.entries as AuditEntry[];
    expect(pageOne).toHaveLength(20);
    expect((pageOne.at(-1)?.at ?? "") >= (pageTwo[0]?.at ?? "")).toBe(true);
    // The 21st change (user → admin) is the newest.
    expect(pageOne[0]?.details).toEqual({ from: "user", to: "admin" });
  });

  it("needs a non-blank reason to show a payment key, and writes nothing without one", async () => {
    const { draftId } = await draftAwaitingPayment();
    const before = (await auditRows()).length;
    for (const query of ["", "?reason=", "?reason=%20%20"])
      expect(await call("GET", `${A}/drafts/${draftId}/payment-key${query}`)).toEqual({
        status: 400,
        body: {
          success: false,
          error: "Please give a reason for viewing this private key",
          field: "reason",
        },
      });
    expect(await auditRows()).toHaveLength(before);
  });
});

describe("an action that fails after its audit row is written", () => {
  const failingOnce = () => armFailpoint("admin.audited", "throw", 1);

  it("leaves neither the row nor the role change", async () => {
    const target = await idOf(await app.auth.mintKey("user"));
    const before = (await auditRows()).length;
    failingOnce();
    expect((await call("PUT", `${A}/users/${target}/role`, { role: "admin" })).status).toBe(500);
    const [row] = await app.database.db.select().from(users).where(eq(users.id, target));
    expect(row?.role).toBe("user");
    expect(await auditRows()).toHaveLength(before);
  });

  it("leaves neither the row nor the deactivation", async () => {
    const key = await app.auth.mintKey("user");
    const before = (await auditRows()).length;
    failingOnce();
    const off = await call("PUT", `${A}/users/${await idOf(key)}/active`, { isActive: false });
    expect(off.status).toBe(500);
    expect((await call("GET", "/api/draft/list", undefined, key)).status).toBe(200);
    expect(await auditRows()).toHaveLength(before);
  });

  it("answers no key and leaves no row for a key view", async () => {
    const { draftId } = await draftAwaitingPayment();
    const before = (await auditRows()).length;
    failingOnce();
    const view = await call("GET", `${A}/drafts/${draftId}/payment-key?reason=refund`);
    expect(view.status).toBe(500);
    expect(view.body.privateKey).toBeUndefined();
    expect(await auditRows()).toHaveLength(before);
  });

  it("leaves the claim pending, unpaid and unrejected", async () => {
    const completed = await pendingClaim(app, "failing-pay", "0.02", receiver());
    const rejected = await pendingClaim(app, "failing-no", "0.02", receiver());
    const before = (await auditRows()).length;
    failingOnce();
    expect((await call("POST", `${A}/claims/${completed.claimId}/complete`)).status).toBe(500);
    failingOnce();
    expect((await call("POST", `${A}/claims/${rejected.claimId}/reject`, {})).status).toBe(500);
    const claims = await app.database.db.select().from(referralClaims);
    expect(claims.find((c) => c.id === completed.claimId)).toMatchObject({
      status: "pending",
      payoutAttempts: 0,
      txHash: null,
    });
    expect(claims.find((c) => c.id === rejected.claimId)?.status).toBe("pending");
    expect(await referralInfoOf(app, rejected.key)).toMatchObject({
      claimable: "0",
      pending: "0.02",
    });
    expect(await auditRows()).toHaveLength(before);
  });
});
