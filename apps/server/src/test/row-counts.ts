import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/**
 * How many rows the tables a request may write hold: equal before and after a refused request
 * means it wrote nothing.
 */
export const rowCounts = async (db: Db) => {
  const { rows } = await db.execute(sql`
    select
      (select count(*) from users)::int as users,
      (select count(*) from wallet_keys)::int as "walletKeys",
      (select count(*) from drafts)::int as drafts,
      (select count(*) from payments)::int as payments,
      (select count(*) from dispersals)::int as dispersals,
      (select count(*) from dispersal_legs)::int as "dispersalLegs"`);
  return rows[0] as Record<string, number>;
};
