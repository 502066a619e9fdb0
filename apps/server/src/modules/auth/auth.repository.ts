import type { Role } from "@bundler/shared";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { users } from "../../db/schema.ts";

export type UserRow = typeof users.$inferSelect;

export class AuthRepository {
  constructor(private readonly db: Db) {}

  async findByKeyHash(keyHash: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.keyHash, keyHash)).limit(1);
    return row;
  }

  /** The device's free key, if it has one (a bought key does not count). */
  async findFreeKeyOf(deviceId: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.deviceId, deviceId), eq(users.keySource, "free")))
      .limit(1);
    return row;
  }

  /** Inserts a key; answers undefined when the device already has a free one (unique index). */
  async insert(
    values: {
      keyHash: string;
      keyPrefix: string;
      role: Role;
      keySource: UserRow["keySource"];
      deviceId?: string | null;
      userAgent?: string | null;
      createdIp?: string | null;
      referredBy?: string | null;
    },
    tx?: Tx,
  ): Promise<UserRow | undefined> {
    const [row] = await (tx ?? this.db)
      .insert(users)
      .values(values)
      .onConflictDoNothing()
      .returning();
    return row;
  }

  /**
   * Runs `work` in one transaction holding a lock on one client address, so that address's free
   * keys are counted one request after another, across server processes.
   */
  withAddressLock<T>(ip: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`free-key:${ip}`}))`);
      return work(tx);
    });
  }

  /** Free keys given to a client address in the last 24 hours. */
  async countFreeKeysFrom(ip: string, tx: Tx): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.createdIp, ip), gt(users.createdAt, sql`now() - interval '24 hours'`)));
    return row?.n ?? 0;
  }

  /** Records use at most once a minute, so validation stays a read on the hot path. */
  async touch(id: string): Promise<void> {
    await this.db
      .update(users)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(users.id, id),
          or(isNull(users.lastUsedAt), lt(users.lastUsedAt, sql`now() - interval '1 minute'`)),
        ),
      );
  }

  async hasRole(role: Role): Promise<boolean> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, role), eq(users.isActive, true)))
      .limit(1);
    return row !== undefined;
  }

  /** Answers the key's digest, or undefined when no key has that id. */
  async setActive(id: string, isActive: boolean, tx?: Tx): Promise<string | undefined> {
    const [row] = await (tx ?? this.db)
      .update(users)
      .set({ isActive })
      .where(eq(users.id, id))
      .returning({ keyHash: users.keyHash });
    return row?.keyHash;
  }

  /** Answers the key's digest, or undefined when no key has that id. */
  async setRole(id: string, role: Role, tx?: Tx): Promise<string | undefined> {
    const [row] = await (tx ?? this.db)
      .update(users)
      .set({ role })
      .where(eq(users.id, id))
      .returning({ keyHash: users.keyHash });
    return row?.keyHash;
  }
}
