import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { drafts, launches } from "../../db/schema.ts";

/** A launch as the wallet manager reads it: the token, its draft's wallets and developer. */
export interface BundleRow {
  tokenAddress: string;
  ticker: string;
  name: string;
  draftId: string;
  /** Every wallet of the launched draft, in the draft's order. */
  wallets: string[];
  developer: string | null;
  logoHash: string | null;
  blockNumber: bigint;
  createdAt: Date;
}

const columns = {
  tokenAddress: launches.tokenAddress,
  ticker: launches.ticker,
  // The launch's own copy: the draft's token_info holds the logo, which a poll must not read.
  name: launches.name,
  draftId: launches.draftId,
  wallets: sql<string[]>`coalesce((
    select jsonb_agg(w->>'address' order by n)
    from jsonb_array_elements(${drafts.walletConfig}->'wallets') with ordinality as e(w, n)
  ), '[]'::jsonb)`,
  developer: drafts.deployerAddress,
  logoHash: drafts.logoHash,
  blockNumber: launches.blockNumber,
  createdAt: launches.createdAt,
};

/** The `launches` table joined with each launch's draft: the caller's bundles. */
export class BundlesRepository {
  constructor(readonly db: Db) {}

  /** One page of the owner's bundles, newest launch first, and how many there are in all. */
  async page(
    ownerId: string,
    { limit, offset }: { limit: number; offset: number },
  ): Promise<{ rows: BundleRow[]; total: number }> {
    const [rows, [counted]] = await Promise.all([
      this.db
        .select(columns)
        .from(launches)
        .innerJoin(drafts, eq(drafts.id, launches.draftId))
        .where(eq(launches.ownerId, ownerId))
        .orderBy(desc(launches.createdAt), desc(launches.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ total: count() }).from(launches).where(eq(launches.ownerId, ownerId)),
    ]);
    return { rows, total: counted?.total ?? 0 };
  }

  /** The owner's bundle of this token (any letter case), or undefined: another's reads as absent. */
  async findOwned(ownerId: string, tokenAddress: string): Promise<BundleRow | undefined> {
    const [row] = await this.db
      .select(columns)
      .from(launches)
      .innerJoin(drafts, eq(drafts.id, launches.draftId))
      .where(
        and(
          eq(launches.ownerId, ownerId),
          sql`lower(${launches.tokenAddress}) = ${tokenAddress.toLowerCase()}`,
        ),
      )
      .limit(1);
    return row;
  }
}
