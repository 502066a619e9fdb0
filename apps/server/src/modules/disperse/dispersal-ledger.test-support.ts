import { TRANSFER_GAS } from "@bundler/chain";
import { eq } from "drizzle-orm";
import type { Address, PublicClient } from "viem";
import type { Db } from "../../db/client.ts";
import { chainTxs, dispersalLegs, dispersals } from "../../db/schema.ts";
import { toTransfers } from "./dispersal-transfers.ts";

/** Everything one dispersal did, read back from the database (tests only). */
export const readDispersal = async (db: Db, receiver: string) => {
  const [row] = await db.select().from(dispersals).where(eq(dispersals.receiver, receiver));
  if (!row) throw new Error(`no dispersal for ${receiver}`);
  const legs = await db.select().from(dispersalLegs).where(eq(dispersalLegs.dispersalId, row.id));
  const transfers = toTransfers(
    await db.select().from(chainTxs).where(eq(chainTxs.subject, row.id)),
  );
  return { row, legs, transfers, fee: TRANSFER_GAS * BigInt(row.gasPrice) };
};

/**
 * The wei account of a dispersal: delivered + gas of every mined transfer + what went back
 * (refunds, returns) + what the receiver still holds. Equals what was paid in when nothing
 * was lost.
 */
export const accountFor = async (db: Db, client: PublicClient, receiver: string) => {
  const { legs, transfers, fee } = await readDispersal(db, receiver);
  const mined = transfers.filter((t) => t.blockNumber !== null);
  const delivered = legs.reduce((sum, leg) => {
    const last = transfers.find(
      (t) => t.kind === "hop" && t.leg === leg.index && t.to === leg.destination,
    );
    return last?.status === "confirmed" ? sum + BigInt(last.value) : sum;
  }, 0n);
  const sentBack = mined
    .filter((t) => t.kind !== "hop" && t.status === "confirmed")
    .reduce((sum, t) => sum + BigInt(t.value), 0n);
  const left = await client.getBalance({ address: receiver as Address });
  const routeWallets = legs.flatMap((leg) => leg.wallets ?? []);
  const routeBalances = await Promise.all(
    routeWallets.map((address) => client.getBalance({ address: address as Address })),
  );
  return {
    total: delivered + BigInt(mined.length) * fee + sentBack + left,
    routeWallets,
    routeLeft: routeBalances.reduce((sum, b) => sum + b, 0n),
    /** The same transfer never mined twice: every step key is unique, every hash mined once. */
    minedHashes: mined.map((t) => t.txHash),
  };
};
