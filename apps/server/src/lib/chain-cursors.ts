import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { chainCursors } from "../db/schema.ts";

/**
 * How far each block scanner has read (the first block it has not scanned yet), one row per
 * scanner: moving it is one write per pass, however many addresses the scanner watches.
 */
export class ChainCursors {
  constructor(private readonly db: Db) {}

  async get(name: string): Promise<bigint | undefined> {
    const [row] = await this.db.select().from(chainCursors).where(eq(chainCursors.name, name));
    return row?.nextBlock;
  }

  async set(name: string, nextBlock: bigint): Promise<void> {
    await this.db
      .insert(chainCursors)
      .values({ name, nextBlock })
      .onConflictDoUpdate({ target: chainCursors.name, set: { nextBlock } });
  }
}
