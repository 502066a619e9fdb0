import { eq, sql } from "drizzle-orm";
import { type Address, parseEther } from "viem";
import { expect } from "vitest";
import { referralCodes } from "../db/schema.ts";
import type { TestApp } from "./app.ts";
import type { TestChain } from "./chain.ts";

/** Calls the app without a key (the public key-purchase routes), answering status and body. */
export const publicCaller =
  (app: () => TestApp) =>
  async (method: "GET" | "POST", url: string, payload?: unknown, ip = "127.0.0.1") => {
    const response = await app().server.inject({
      method,
      url,
      remoteAddress: ip,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };

/** A user key with a referral code of its own. */
export const referrerWith = async (app: TestApp, code: string) => {
  const key = await app.auth.mintKey("user");
  const response = await app.server.inject({
    method: "POST",
    url: "/api/auth/referral/create",
    headers: { "x-auth-key": key },
    payload: { code },
  });
  expect(response.statusCode, response.body).toBe(200);
  return key;
};

/** The referral info a key sees. */
export const referralInfoOf = async (app: TestApp, key: string) => {
  const response = await app.server.inject({
    method: "GET",
    url: "/api/auth/referral/info",
    headers: { "x-auth-key": key },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, unknown>;
};

export const nextBlock = async (testChain: TestChain) => {
  const now = await testChain.chain.client.getBlockNumber();
  while ((await testChain.chain.client.getBlockNumber()) === now)
    await new Promise((resolve) => setTimeout(resolve, 100));
};

/** Runs `pass` once a block until `done` holds (at most `blocks` blocks). */
export const eachBlockUntil = async (
  testChain: TestChain,
  pass: () => Promise<unknown>,
  done: () => Promise<boolean>,
  blocks = 30,
) => {
  for (let i = 0; i < blocks; i++) {
    await pass();
    if (await done()) return;
    await nextBlock(testChain);
  }
  throw new Error("not done in time");
};

/**
 * A referrer holding `bnb` claimable, as credited rewards would leave it (the rewards themselves
 * are tested with real payments in referral.int.test.ts).
 */
export const claimableReferrer = async (app: TestApp, code: string, bnb: string) => {
  const key = await referrerWith(app, code);
  const [row] = await app.database.db
    .select({ userId: referralCodes.userId })
    .from(referralCodes)
    .where(sql`lower(${referralCodes.code}) = lower(${code})`);
  const userId = row?.userId as string;
  await app.database.db
    .update(referralCodes)
    .set({ earned: parseEther(bnb).toString(), claimable: parseEther(bnb).toString() })
    .where(eq(referralCodes.userId, userId));
  return { key, userId };
};

/** A referrer's pending claim of `bnb` to `receivingAddress`. */
export const pendingClaim = async (
  app: TestApp,
  code: string,
  bnb: string,
  receivingAddress: Address,
) => {
  const { key, userId } = await claimableReferrer(app, code, bnb);
  const response = await app.server.inject({
    method: "POST",
    url: "/api/auth/referral/claim",
    headers: { "x-auth-key": key },
    payload: { receivingAddress },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { key, userId, claimId: (response.json() as { claim: { id: string } }).claim.id };
};
