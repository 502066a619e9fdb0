import { eq } from "drizzle-orm";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { drafts, launches, payments, users } from "../db/schema.ts";
import { hashAccessKey } from "../lib/crypto.ts";
import type { TestApp } from "./app.ts";

/** The id of the user whose access key is `key`. */
export const userIdOf = async (app: TestApp, key: string): Promise<string> => {
  const [row] = await app.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.keyHash, hashAccessKey(key)));
  if (!row) throw new Error("no user has this key");
  return row.id;
};

const address = () => privateKeyToAccount(generatePrivateKey()).address;

/**
 * A user's history as the launch flow leaves it in the database: `launched` executed drafts with
 * their launch and paid launch fee (`fee` BNB each), for the admin lists and stats. (Launching on
 * the chain is tested in modules/launch; here only what the dashboard reads matters.)
 */
export const launchHistory = async (
  app: TestApp,
  ownerId: string,
  launched: number,
  fee = "0.5",
) => {
  const { db } = app.database;
  for (let i = 0; i < launched; i++) {
    const [draft] = await db
      .insert(drafts)
      .values({
        ownerId,
        status: "executed",
        tokenInfo: { name: `Token ${i}`, symbol: `TK${i}` },
        walletConfig: { wallets: [] },
      })
      .returning();
    if (!draft) throw new Error("draft not inserted");
    await db.insert(payments).values({
      kind: "launch_fee",
      draftId: draft.id,
      ownerId,
      address: address(),
      amount: parseEther(fee).toString(),
      status: "paid",
      paidAt: new Date(),
      expiresAt: new Date(),
      scanFromBlock: 0n,
    });
    await db.insert(launches).values({
      ownerId,
      draftId: draft.id,
      tokenAddress: address(),
      ticker: `TK${i}`,
      wallets: [address(), address()],
      blockNumber: 1n,
    });
  }
};
