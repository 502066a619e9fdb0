import { eq } from "drizzle-orm";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referralCodes } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import {
  claimableReferrer,
  pendingClaim,
  referralInfoOf,
  referrerWith,
} from "../../test/referral.ts";

let app: TestApp;
/** A second server process on the same database. */
let second: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  second = await createTestApp({ database: app.database });
});
afterAll(async () => {
  await second?.close();
  await app?.close();
});

const call = apiCaller(
  () => app,
  () => "",
);

describe("claims", () => {
  const withClaimable = async (code: string, bnb: string) =>
    (await claimableReferrer(app, code, bnb)).key;
  const receiver = privateKeyToAccount(generatePrivateKey()).address;

  it("lets exactly one of two concurrent claims reserve the claimable amount", async () => {
    const key = await withClaimable("racer", "0.05");
    const [a, b] = await Promise.all([
      call("POST", "/api/auth/referral/claim", { receivingAddress: receiver }, key),
      second.server
        .inject({
          method: "POST",
          url: "/api/auth/referral/claim",
          headers: { "x-auth-key": key },
          payload: { receivingAddress: receiver },
        })
        .then((r) => ({ status: r.statusCode, body: r.json() })),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const claims = await call("GET", "/api/auth/referral/claims", undefined, key);
    expect(claims.body.claims).toMatchObject([
      { amount: "0.05", status: "pending", receivingAddress: receiver, txHash: null },
    ]);
    expect(await referralInfoOf(app, key)).toMatchObject({
      claimable: "0",
      pending: "0.05",
      hasPendingClaim: true,
    });
  });

  it("answers SPEC §5's words: nothing to claim first, then the address", async () => {
    const empty = await referrerWith(app, "empty-pockets");
    expect(
      await call("POST", "/api/auth/referral/claim", { receivingAddress: receiver }, empty),
    ).toEqual({ status: 400, body: { success: false, error: "No BNB available to claim" } });
    const key = await withClaimable("has-some", "0.01");
    for (const [receivingAddress, error] of [
      ["", "Please enter a receiving address"],
      ["0x1234", "Please enter a valid BNB address"],
    ])
      expect(await call("POST", "/api/auth/referral/claim", { receivingAddress }, key)).toEqual({
        status: 400,
        body: { success: false, error },
      });
    expect(await referralInfoOf(app, key)).toMatchObject({ claimable: "0.01", pending: "0" });
  });

  it("shows each user only their own claims", async () => {
    await pendingClaim(app, "someone-else", "0.03", receiver);
    const mine = await app.auth.mintKey("user");
    expect((await call("GET", "/api/auth/referral/claims", undefined, mine)).body).toEqual({
      success: true,
      claims: [],
    });
  });

  it("refuses a second claim while one is pending", async () => {
    const key = await withClaimable("patient", "0.02");
    await call("POST", "/api/auth/referral/claim", { receivingAddress: receiver }, key);
    const [user] = await app.database.db
      .select({ id: referralCodes.userId })
      .from(referralCodes)
      .where(eq(referralCodes.code, "patient"));
    await app.database.db
      .update(referralCodes)
      .set({ claimable: parseEther("0.01").toString() })
      .where(eq(referralCodes.userId, user?.id as string));
    const again = await call(
      "POST",
      "/api/auth/referral/claim",
      { receivingAddress: receiver },
      key,
    );
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/A claim is already pending/);
  });
});
