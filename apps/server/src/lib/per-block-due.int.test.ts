import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { bumperDue } from "../modules/bumper/bumper.repository.ts";
import { disperseDue } from "../modules/disperse/disperse.repository.ts";
import { adoptDue } from "../modules/launch/launch.repository.ts";
import { paymentWatchDue } from "../modules/payments/payment.repository.ts";
import { pnlDue } from "../modules/pnl/pnl.repository.ts";
import { payoutsDue } from "../modules/referral/referral.repository.ts";
import { reconcileDue } from "../modules/transactions/transactions.repository.ts";
import { createTestDatabase } from "../test/database.ts";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const PASSES = {
  reconcileDue,
  paymentWatchDue,
  disperseDue,
  bumperDue,
  adoptDue,
  payoutsDue,
  pnlDue,
};

describe("the per-block passes' due conditions", () => {
  it.each(Object.entries(PASSES))(
    "%s is valid SQL and false on an empty database",
    async (_, due) => {
      const { rows } = await database.db.execute(sql`select (${due()}) as due`);
      expect(rows[0]).toEqual({ due: false });
    },
  );
});
