import { eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { users } from "../db/schema.ts";

/**
 * Holds a user's row until the transaction ends. Every quota check starts with it, so one
 * user's requests count one after another, across any number of server processes, and two at
 * once cannot both pass the last free place.
 */
export const lockUser = async (tx: Tx, userId: string): Promise<void> => {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
};
