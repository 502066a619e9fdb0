import { or, type SQL, sql } from "drizzle-orm";
import {
  bumpers,
  dispersals,
  launches,
  payments,
  referralCodes,
  users,
  walletKeys,
} from "../../db/schema.ts";
import { hashAccessKey } from "../../lib/crypto.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;
const ROLES = ["user", "admin", "superadmin"];

/** `text` as a LIKE pattern's literal part (its %, _ and \ matched as themselves). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The users an admin's search names, over every user (not one page), case-insensitively:
 * - a key: by its start (the list shows a key's first characters) or, pasted whole, by its
 *   digest (the only form the database keeps);
 * - a user id (whole), a device id or a part of one, a role;
 * - an address (whole): a wallet whose key the server holds for them (deployer, bundle, tip,
 *   bumper, dispersal or payment), a payment address, a token they launched or bump, a
 *   dispersal's receiver;
 * - a referral code.
 */
export const userSearchFilter = (search: string): SQL => {
  const text = search.trim();
  const lower = text.toLowerCase();
  const conditions: SQL[] = [
    sql`lower(${users.keyPrefix}) like ${`${literal(lower)}%`}`,
    sql`${users.keyHash} = ${hashAccessKey(text)}`,
    sql`lower(coalesce(${users.deviceId}, '')) like ${`%${literal(lower)}%`}`,
    sql`exists (select 1 from ${referralCodes} where ${referralCodes.userId} = ${users.id} and lower(${referralCodes.code}) = ${lower})`,
  ];
  if (ROLES.includes(lower)) conditions.push(sql`${users.role} = ${lower}`);
  if (UUID.test(lower)) conditions.push(sql`${users.id} = ${lower}::uuid`);
  if (ADDRESS.test(lower))
    conditions.push(
      sql`exists (select 1 from ${walletKeys} where ${walletKeys.ownerId} = ${users.id} and lower(${walletKeys.address}) = ${lower})`,
      sql`exists (select 1 from ${payments} where ${payments.ownerId} = ${users.id} and lower(${payments.address}) = ${lower})`,
      sql`exists (select 1 from ${launches} where ${launches.ownerId} = ${users.id} and lower(${launches.tokenAddress}) = ${lower})`,
      sql`exists (select 1 from ${bumpers} where ${bumpers.ownerId} = ${users.id} and lower(${bumpers.targetToken}) = ${lower})`,
      sql`exists (select 1 from ${dispersals} where ${dispersals.ownerId} = ${users.id} and lower(${dispersals.receiver}) = ${lower})`,
    );
  return or(...conditions) as SQL;
};
