import { randomUUID } from "node:crypto";
import { keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { createTestDatabase } from "../../test/database.ts";
import { type NewTxRow, TransactionsRepository } from "./transactions.repository.ts";

let database: Database;
let repo: TransactionsRepository;
let nonce = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  repo = new TransactionsRepository(database.db);
});
afterAll(async () => {
  await database?.close();
});

/** A recorded transaction under `key`; only the key, subject and status matter here. */
const row = (key: string, subject: string, status: NewTxRow["status"] = "mined"): NewTxRow => {
  const rawTx = toHex(`${key}:${++nonce}`);
  return {
    key,
    purpose: "dispersal-hop",
    subject,
    from: "0x0000000000000000000000000000000000000001",
    to: "0x0000000000000000000000000000000000000002",
    value: "1",
    nonce,
    gas: 21_000n,
    gasPrice: "1",
    rawTx,
    txHash: keccak256(rawTx),
    status,
  };
};

const record = (keys: string[], subject: string, status?: NewTxRow["status"]) =>
  database.db.transaction((tx) =>
    repo.insert(
      tx,
      keys.map((key) => row(key, subject, status)),
    ),
  );

describe("latestStepsBySubjects", () => {
  it("answers the newest step of each sequence and every key that is not a step", async () => {
    const subject = randomUUID();
    await record(
      [
        `dispersal:${subject}:0:0`,
        `dispersal:${subject}:0:1`,
        `dispersal:${subject}:0:2`,
        `dispersal:${subject}:1:0`,
        `dispersal:${subject}:1:return`,
        `dispersal:${subject}:refund:0xaa`,
        `dispersal:${subject}:refund:0xbb`,
        `dispersal:${subject}:10:9`,
        `dispersal:${subject}:10:10`,
      ],
      subject,
    );
    const keys = (await repo.latestStepsBySubjects([subject])).map((r) => r.key).sort();
    expect(keys).toEqual(
      [
        `dispersal:${subject}:0:2`,
        `dispersal:${subject}:1:0`,
        `dispersal:${subject}:1:return`,
        `dispersal:${subject}:10:10`,
        `dispersal:${subject}:refund:0xaa`,
        `dispersal:${subject}:refund:0xbb`,
      ].sort(),
    );
  });

  it("keeps a step that is not mined beside the one signed ahead of it", async () => {
    const subject = randomUUID();
    await record([`dispersal:${subject}:0:0`], subject);
    await record([`dispersal:${subject}:0:1`], subject, "sent");
    await record([`dispersal:${subject}:0:2`], subject, "signed");
    const keys = (await repo.latestStepsBySubjects([subject])).map((r) => r.key).sort();
    expect(keys).toEqual([`dispersal:${subject}:0:1`, `dispersal:${subject}:0:2`]);
  });

  it("reads only the subjects asked for", async () => {
    const mine = randomUUID();
    const other = randomUUID();
    await record([`dispersal:${mine}:0:0`], mine);
    await record([`dispersal:${other}:0:0`, `dispersal:${other}:0:1`], other);
    expect((await repo.latestStepsBySubjects([mine])).map((r) => r.key)).toEqual([
      `dispersal:${mine}:0:0`,
    ]);
  });

  it("answers what bySubjects answers, without the signed bytes", async () => {
    const subject = randomUUID();
    await record([`x:${subject}:a`], subject);
    const [latest] = await repo.latestStepsBySubjects([subject]);
    const [all] = await repo.bySubjects([subject]);
    expect(latest).toEqual(all);
    expect(latest).not.toHaveProperty("rawTx");
  });
});
