import { eq } from "drizzle-orm";
import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminAudit, chainTxs, referralClaims } from "../../db/schema.ts";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { eachBlockUntil, nextBlock, pendingClaim, referralInfoOf } from "../../test/referral.ts";

let testChain: TestChain;
let app: TestApp;
let admin: string;
const masterKey = Buffer.alloc(32, 23);
const treasuryKey = generatePrivateKey();
const treasury = privateKeyToAccount(treasuryKey).address;

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  await testChain.rpc("anvil_setBalance", [treasury, `0x${parseEther("5").toString(16)}`]);
  app = await createTestApp({
    chain: testChain.chain,
    masterKey,
    treasuryAddress: treasury,
    treasuryKey,
    // A payout the node refuses is given up after 2 s instead of 10 minutes.
    transactions: { dropAfterMs: 2000, rebroadcastAfterMs: 500 },
  });
  admin = await app.auth.mintKey("admin");
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});
afterEach(async () => {
  disarmFailpoints();
  await testChain.faults({});
});

const call = apiCaller(
  () => app,
  () => admin,
);
const balance = (address: Address) => testChain.chain.client.getBalance({ address });
const newReceiver = () => privateKeyToAccount(generatePrivateKey()).address;
const claimRow = async (id: string) =>
  (await app.database.db.select().from(referralClaims).where(eq(referralClaims.id, id)))[0];
const auditOf = (claimId: string) =>
  app.database.db.select().from(adminAudit).where(eq(adminAudit.targetId, claimId));
/** The payout job's pass and the transaction manager's, once a block, until `done`. */
const payoutsUntil = (done: () => Promise<boolean>) =>
  eachBlockUntil(
    testChain,
    async () => {
      await app.transactions?.reconcile();
      await app.payouts.tick();
    },
    done,
  );

describe("completing a claim", () => {
  it("sends the BNB from the treasury to the receiving address; the claim shows the hash and turns completed", async () => {
    const receiver = newReceiver();
    const { key, claimId } = await pendingClaim(app, "payday", "0.25", receiver);
    const treasuryBefore = await balance(treasury);

    const completed = await call("POST", `/api/admin/dashboard/claims/${claimId}/complete`);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    await payoutsUntil(async () => (await claimRow(claimId))?.status === "completed");

    expect(await balance(receiver)).toBe(parseEther("0.25"));
    const [payout] = await app.database.db
      .select()
      .from(chainTxs)
      .where(eq(chainTxs.subject, claimId));
    expect(payout).toMatchObject({ purpose: "referral-payout", status: "mined", to: receiver });
    expect(treasuryBefore - (await balance(treasury))).toBe(
      parseEther("0.25") + BigInt(payout?.fee ?? 0),
    );
    const claims = await call("GET", "/api/auth/referral/claims", undefined, key);
    expect(claims.body.claims).toMatchObject([
      { id: claimId, status: "completed", txHash: payout?.txHash, amount: "0.25" },
    ]);
    expect(await referralInfoOf(app, key)).toMatchObject({
      claimable: "0",
      pending: "0",
      claimed: "0.25",
      hasPendingClaim: false,
    });
    expect(await auditOf(claimId)).toMatchObject([{ action: "claim_complete" }]);
  });

  it("sends a payout recorded just before the process died, once, on the job's next pass", async () => {
    const receiver = newReceiver();
    const { claimId } = await pendingClaim(app, "crashed", "0.1", receiver);
    armFailpoint("claim.approved", "throw", 1);
    const died = await call("POST", `/api/admin/dashboard/claims/${claimId}/complete`);
    expect(died.status).toBe(500);
    expect(await claimRow(claimId)).toMatchObject({ payoutAttempts: 1, txHash: null });

    await Promise.all([app.payouts.tick(), app.fresh().payouts.tick()]);
    await payoutsUntil(async () => (await claimRow(claimId))?.status === "completed");
    expect(await balance(receiver)).toBe(parseEther("0.1"));
    const payouts = await app.database.db
      .select()
      .from(chainTxs)
      .where(eq(chainTxs.subject, claimId));
    expect(payouts).toHaveLength(1);
  });

  it("leaves the claim pending with the reason when the payout fails, and pays once when completed again", async () => {
    const receiver = newReceiver();
    const { claimId } = await pendingClaim(app, "unlucky", "0.05", receiver);
    await testChain.faults({ refuseRawTo: [receiver] });
    await call("POST", `/api/admin/dashboard/claims/${claimId}/complete`);
    await payoutsUntil(async () => (await claimRow(claimId))?.reason != null);
    const failed = await claimRow(claimId);
    expect(failed).toMatchObject({ status: "pending", payoutAttempts: 1 });
    expect(failed?.reason).toMatch(/^The payout was dropped/);
    // A dropped payout could still land while its nonce is unused: rejecting is refused.
    const reject = await call("POST", `/api/admin/dashboard/claims/${claimId}/reject`, {});
    expect(reject.status).toBe(409);

    await testChain.faults({});
    const again = await call("POST", `/api/admin/dashboard/claims/${claimId}/complete`);
    expect(again.status).toBe(200);
    await payoutsUntil(async () => (await claimRow(claimId))?.status === "completed");
    expect(await balance(receiver)).toBe(parseEther("0.05"));
    expect(await auditOf(claimId)).toHaveLength(2);
  });

  it("refuses to reject a claim whose dropped payout landed later, and completing it records that payout without paying again", async () => {
    const receiver = newReceiver();
    const { claimId } = await pendingClaim(app, "late-landing", "0.04", receiver);
    await testChain.faults({ refuseRawTo: [receiver] });
    await call("POST", `/api/admin/dashboard/claims/${claimId}/complete`);
    await payoutsUntil(async () => (await claimRow(claimId))?.reason != null);
    const [first] = await app.database.db
      .select()
      .from(chainTxs)
      .where(eq(chainTxs.subject, claimId));
    expect(first?.status).toBe("dropped");
    // A node that kept the transfer passes it on: the claim is paid.
    await testChain.faults({});
    await testChain.rpc("eth_sendRawTransaction", [first?.rawTx]);
    await testChain.mine();

    const reject = await call("POST", `/api/admin/dashboard/claims/${claimId}/reject`, {});
    expect(reject.status).toBe(409);
    expect(reject.body.error).toMatch(/landed after the node had dropped it/);
    const again = await call("POST", `/api/admin/dashboard/claims/${claimId}/complete`);
    expect(again.status).toBe(200);
    await payoutsUntil(async () => (await claimRow(claimId))?.status === "completed");
    expect((await claimRow(claimId))?.txHash).toBe(first?.txHash);
    expect(await balance(receiver)).toBe(parseEther("0.04"));
    const attempts = await app.database.db
      .select()
      .from(chainTxs)
      .where(eq(chainTxs.subject, claimId));
    expect(attempts.map((row) => row.status)).toEqual(["mined"]);
  });

  it("refuses, recording nothing, when the treasury cannot pay or has no key", async () => {
    const { claimId } = await pendingClaim(app, "too-big", "10", newReceiver());
    const short = await call("POST", `/api/admin/dashboard/claims/${claimId}/complete`);
    expect(short.status).toBe(409);
    expect(short.body.error).toMatch(
      /^The treasury 0x[0-9a-fA-F]{40} holds .* less than this claim's 10\.0000 BNB plus gas/,
    );

    const keyless = await createTestApp({
      database: app.database,
      chain: testChain.chain,
      masterKey,
    });
    try {
      const refused = await keyless.server.inject({
        method: "POST",
        url: `/api/admin/dashboard/claims/${claimId}/complete`,
        headers: { "x-auth-key": admin },
      });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({
        success: false,
        error:
          "No treasury key is configured (TREASURY_PRIVATE_KEY or TREASURY_KEY_FILE): claims cannot be paid",
      });
    } finally {
      await keyless.close();
    }
    expect(await claimRow(claimId)).toMatchObject({ status: "pending", payoutAttempts: 0 });
    expect(await auditOf(claimId)).toEqual([]);
  });
});

describe("a payout whose block the chain takes back", () => {
  it("completes the claim only once its payout is two blocks deep, and pays it once when the payout's block is taken back", async () => {
    const receiver = newReceiver();
    const { claimId } = await pendingClaim(app, "reorged", "0.2", receiver);
    await testChain.setBlockTime(0);
    try {
      // Nothing is mined: the admin is answered once the route stops waiting for the payout.
      const completed = await call("POST", `/api/admin/dashboard/claims/${claimId}/complete`);
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      const sent = await claimRow(claimId);
      const { result: snapshot } = (await (await testChain.rpc("evm_snapshot", [])).json()) as {
        result: string;
      };
      // The payout's block, and one on top of it: the chain may still take them back.
      await testChain.mine();
      await testChain.mine();
      expect((await testChain.chain.client.getBalance({ address: receiver })) > 0n).toBe(true);
      await app.transactions?.reconcile();
      await app.payouts.tick();
      expect((await claimRow(claimId))?.status).toBe("pending");
      await testChain.rpc("evm_revert", [snapshot]);
      await testChain.rpc("anvil_dropTransaction", [sent?.txHash]);
      expect(await balance(receiver)).toBe(0n);
    } finally {
      await testChain.setBlockTime();
    }
    // The payout is gone: it is dropped (the claim waits for the admin, with the reason), or
    // sent again at its nonce; either way the claim is paid once.
    await payoutsUntil(async () => {
      const claim = await claimRow(claimId);
      return claim?.status === "completed" || claim?.reason != null;
    });
    if ((await claimRow(claimId))?.status !== "completed") {
      const again = await call("POST", `/api/admin/dashboard/claims/${claimId}/complete`);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      await payoutsUntil(async () => (await claimRow(claimId))?.status === "completed");
    }
    // A few blocks more: nothing else arrives.
    for (let block = 0; block < 3; block++) {
      await nextBlock(testChain);
      await app.transactions?.reconcile();
      await app.payouts.tick();
    }
    expect(await balance(receiver)).toBe(parseEther("0.2"));
  }, 120_000);
});

describe("rejecting a claim", () => {
  it("returns the amount to claimable and records the reason", async () => {
    const { key, userId, claimId } = await pendingClaim(app, "rejected", "0.3", newReceiver());
    const rejected = await call("POST", `/api/admin/dashboard/claims/${claimId}/reject`, {
      reason: "self-referral",
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.claim).toMatchObject({
      status: "rejected",
      reason: "self-referral",
      amount: "0.3",
    });
    expect(await referralInfoOf(app, key)).toMatchObject({
      claimable: "0.3",
      pending: "0",
      hasPendingClaim: false,
    });
    const twice = await call("POST", `/api/admin/dashboard/claims/${claimId}/reject`, {});
    expect(twice.status).toBe(409);
    const listed = await call("GET", "/api/admin/dashboard/claims?status=rejected");
    expect(listed.body.claims).toMatchObject([{ id: claimId, keyPrefix: key.slice(0, 6) }]);
    const owner = await call("GET", `/api/admin/dashboard/users/${userId}`);
    expect(owner.body.user).toMatchObject({
      referral: { code: "rejected", claimable: "0.3" },
      claims: [{ id: claimId, status: "rejected", reason: "self-referral" }],
    });
    expect(await auditOf(claimId)).toMatchObject([
      { action: "claim_reject", reason: "self-referral" },
    ]);
  });
});
