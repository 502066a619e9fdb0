import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { chainSends, drafts, launches, payments } from "../../db/schema.ts";

export type DraftRow = typeof drafts.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type SendRow = typeof chainSends.$inferSelect;
export type DraftStatusValue = DraftRow["status"];

export class DraftsRepository {
  constructor(readonly db: Db) {}

  async insert(values: typeof drafts.$inferInsert): Promise<DraftRow> {
    const [row] = await this.db.insert(drafts).values(values).returning();
    if (!row) throw new Error("draft insert returned nothing");
    return row;
  }

  /** The owner's live draft, or undefined (another user's id reads as absent). */
  async findOwned(id: string, ownerId: string): Promise<DraftRow | undefined> {
    const [row] = await this.db
      .select()
      .from(drafts)
      .where(and(eq(drafts.id, id), eq(drafts.ownerId, ownerId), isNull(drafts.deletedAt)))
      .limit(1);
    return row;
  }

  async findById(id: string): Promise<DraftRow | undefined> {
    const [row] = await this.db.select().from(drafts).where(eq(drafts.id, id)).limit(1);
    return row;
  }

  async listOwned(ownerId: string): Promise<DraftRow[]> {
    return this.db
      .select()
      .from(drafts)
      .where(and(eq(drafts.ownerId, ownerId), isNull(drafts.deletedAt)))
      .orderBy(desc(drafts.updatedAt));
  }

  /** Writes only while the draft is in one of `statuses`; answers the row, or undefined. */
  async updateIf(
    id: string,
    ownerId: string,
    statuses: DraftStatusValue[],
    values: Partial<typeof drafts.$inferInsert>,
  ): Promise<DraftRow | undefined> {
    const [row] = await this.db
      .update(drafts)
      .set({ ...values, updatedAt: sql`now()` })
      .where(
        and(
          eq(drafts.id, id),
          eq(drafts.ownerId, ownerId),
          isNull(drafts.deletedAt),
          inArray(drafts.status, statuses),
        ),
      )
      .returning();
    return row;
  }

  async setExpiresAt(ids: string[], expiresAt: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db.update(drafts).set({ expiresAt }).where(inArray(drafts.id, ids));
  }

  async paymentsByIds(ids: string[]): Promise<PaymentRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(payments).where(inArray(payments.id, ids));
  }

  async refundsForDrafts(draftIds: string[]): Promise<SendRow[]> {
    if (draftIds.length === 0) return [];
    return this.db
      .select()
      .from(chainSends)
      .where(and(inArray(chainSends.draftId, draftIds), eq(chainSends.kind, "refund")))
      .orderBy(chainSends.createdAt);
  }

  async launchTokens(
    draftIds: string[],
  ): Promise<Array<{ draftId: string; tokenAddress: string }>> {
    if (draftIds.length === 0) return [];
    return this.db
      .select({ draftId: launches.draftId, tokenAddress: launches.tokenAddress })
      .from(launches)
      .where(inArray(launches.draftId, draftIds));
  }
}
