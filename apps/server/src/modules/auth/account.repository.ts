import { ACCOUNT_KEY_PURPOSES, type KeyKind, type Role } from "@bundler/shared";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { adminAudit, users, walletKeys } from "../../db/schema.ts";

export type WalletKeyRow = typeof walletKeys.$inferSelect;

export interface AccountRow {
  id: string;
  keyPrefix: string;
  kind: KeyKind;
  role: Role;
  createdAt: Date;
}

/** The caller's own user row and the wallet keys the vault holds for them. */
export class AccountRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async find(userId: string, tx?: Tx): Promise<AccountRow | undefined> {
    const [row] = await (tx ?? this.db)
      .select({
        id: users.id,
        keyPrefix: users.keyPrefix,
        kind: users.keySource,
        role: users.role,
        createdAt: users.createdAt,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row;
  }

  /** Every sealed key the user owns (payment addresses left out), oldest first. */
  ownedKeys(userId: string, tx: Tx): Promise<WalletKeyRow[]> {
    return tx
      .select()
      .from(walletKeys)
      .where(
        and(eq(walletKeys.ownerId, userId), inArray(walletKeys.purpose, [...ACCOUNT_KEY_PURPOSES])),
      )
      .orderBy(asc(walletKeys.createdAt), asc(walletKeys.id));
  }

  /** The export's row in the audit log, written in the transaction that reads the keys. */
  async recordExport(tx: Tx, actor: AccountRow, keyCount: number): Promise<void> {
    await tx.insert(adminAudit).values({
      actorId: actor.id,
      actorKeyPrefix: actor.keyPrefix,
      actorRole: actor.role,
      action: "keys_export",
      targetType: "user",
      targetId: actor.id,
      details: { keys: keyCount },
    });
  }
}
