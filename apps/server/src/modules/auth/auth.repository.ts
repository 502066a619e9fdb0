import type { Role } from "@bundler/shared";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../../db/schema.ts";

export type UserRow = typeof users.$inferSelect;

export class AuthRepository {
  constructor(private readonly db: Db) {}

  async findByKeyHash(keyHash: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.keyHash, keyHash)).limit(1);
    return row;
  }

  async findByDeviceId(deviceId: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.deviceId, deviceId)).limit(1);
    return row;
  }

  /** Inserts a key; answers undefined when the device already has one (unique index). */
  async insert(values: {
    keyHash: string;
    keyPrefix: string;
    role: Role;
    deviceId?: string | null;
    userAgent?: string | null;
  }): Promise<UserRow | undefined> {
    const [row] = await this.db.insert(users).values(values).onConflictDoNothing().returning();
    return row;
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

  async setActive(id: string, isActive: boolean): Promise<void> {
    await this.db.update(users).set({ isActive }).where(eq(users.id, id));
  }
}
