import type { AuditAction, AuditEntry, Role } from "@bundler/shared";
import { count, desc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { adminAudit, users } from "../../db/schema.ts";
import { NotFoundError } from "../../lib/errors.ts";

/** Who acts: the admin's user id, key prefix and role at the time. */
export interface AuditActor {
  userId: string;
  keyPrefix: string;
  role: Role;
}

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  target: AuditEntry["target"];
  reason?: string | null;
  details?: Record<string, unknown> | null;
}

/** The audit log: written only inside the transaction of the action it records. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** The acting admin as the database knows them, read in the action's transaction. */
  async actor(tx: Tx, userId: string): Promise<AuditActor> {
    const [row] = await tx
      .select({ userId: users.id, keyPrefix: users.keyPrefix, role: users.role })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) throw new NotFoundError("User not found");
    return row;
  }

  async record(tx: Tx, entry: AuditRecord): Promise<void> {
    await tx.insert(adminAudit).values({
      actorId: entry.actor.userId,
      actorKeyPrefix: entry.actor.keyPrefix,
      actorRole: entry.actor.role,
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id,
      reason: entry.reason ?? null,
      details: entry.details ?? null,
    });
  }

  /** Newest first. */
  async page(limit: number, offset: number): Promise<{ entries: AuditEntry[]; total: number }> {
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(adminAudit)
        .orderBy(desc(adminAudit.at), desc(adminAudit.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(adminAudit),
    ]);
    return {
      entries: rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: {
          userId: row.actorId,
          keyPrefix: row.actorKeyPrefix,
          role: row.actorRole as Role,
        },
        action: row.action as AuditAction,
        target: { type: row.targetType as AuditEntry["target"]["type"], id: row.targetId },
        reason: row.reason,
        details: (row.details as Record<string, unknown> | null) ?? null,
      })),
      total: total?.n ?? 0,
    };
  }
}
