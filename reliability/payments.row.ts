import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createTestApp } from "../apps/server/src/test/app.ts";
import { startTestChain } from "../apps/server/src/test/chain.ts";
import { createTestDatabase } from "../apps/server/src/test/database.ts";
import { forwarderOn } from "../apps/server/src/test/forwarder.ts";
import {
  type Case,
  type Harness,
  KINDS,
  nextBlock,
  openCase,
  PROMISE,
  refundsTo,
  WAYS,
} from "./payments/cases.ts";
import { type Figure, type Row, type RowContext, zero } from "./row.ts";

/** Blocks the watcher and the dispersal engine get to settle every case. */
const SETTLE_BLOCKS = 60;
/** Blocks they keep going once all is settled, for a second credit or refund to show. */
const AFTER_BLOCKS = 3;

interface Outcome {
  c: Case;
  wrong: string[];
  creditedTwice: boolean;
  unaccounted: bigint;
}

/** What became of one case, against the README's promise. */
const judge = async (h: Harness, c: Case): Promise<Outcome> => {
  const promise = PROMISE[c.way];
  const credited = await c.credited();
  const refunds = await refundsTo(h, c.payer);
  const end = await h.testChain.chain.client.getBalance({ address: c.payer });
  const loss = c.start - end - c.ownGas;
  const creditedAmount = credited ? c.amount : 0n;
  const unaccounted = loss - creditedAmount - refunds.gas;
  const credits = await c.credits();
  const wrong: string[] = [];
  if (credited !== promise.credited) wrong.push(credited ? "credited" : "not credited");
  if (refunds.count !== promise.refunds) wrong.push(`${refunds.count} refunds`);
  if (unaccounted !== 0n) wrong.push(`${unaccounted} wei unaccounted`);
  if (credits > 1) wrong.push(`credited ${credits} times`);
  if (promise.credited && credits === 0) wrong.push("credit not delivered");
  return { c, wrong, creditedTwice: credits > 1, unaccounted };
};

/** Every kind × way, `rounds` times over, on one database; answers each case's outcome. */
const measure = async (databaseUrl: string | null, rounds: number, log: (l: string) => void) => {
  const masterKey = Buffer.from(generatePrivateKey().slice(2), "hex");
  const testChain = await startTestChain(masterKey);
  const database = await createTestDatabase(databaseUrl);
  const app = await createTestApp({
    chain: testChain.chain,
    database,
    masterKey,
    launchFeeBnb: "0.01",
    treasuryAddress: privateKeyToAccount(generatePrivateKey()).address,
    bodyLimitBytes: 2 * 1024 * 1024,
    keyPaymentLimitPerHour: 10_000,
  });
  try {
    const h: Harness = { app, testChain, forwarder: await forwarderOn(testChain) };
    const cases: Case[] = [];
    let n = 0;
    for (let round = 0; round < rounds; round++)
      for (const kind of KINDS)
        for (const way of WAYS) cases.push(await openCase(h, kind, way, n++));
    log(`${cases.length} payments made; settling`);
    const pass = async () => {
      await app
        .fresh()
        .paymentWatcher?.tick()
        .catch(() => {});
      await app.disperseEngine?.tick().catch(() => {});
    };
    let blocks = 0;
    for (; blocks < SETTLE_BLOCKS; blocks++) {
      await pass();
      // Settled means closed with nothing in flight, and the address emptied: every refund and
      // sweep mined (a payment closed before its late money arrived is not settled yet).
      const settled = await Promise.all(
        cases.map(
          async (c) =>
            (await c.final()) &&
            (await testChain.chain.client.getBalance({ address: c.address })) === 0n,
        ),
      );
      if (settled.every(Boolean)) break;
      await nextBlock(testChain);
    }
    log(`settled after ${blocks} blocks`);
    for (let i = 0; i < AFTER_BLOCKS; i++) {
      await nextBlock(testChain);
      await pass();
    }
    const outcomes: Outcome[] = [];
    for (const c of cases) outcomes.push(await judge(h, c));
    for (const o of outcomes)
      if (o.wrong.length > 0) log(`${o.c.kind}, ${o.c.way}: ${o.wrong.join(", ")}`);
    return outcomes;
  } finally {
    await app.close();
    await database.close();
    await testChain.stop();
  }
};

const figures = (database: string, outcomes: Outcome[]): Figure[] => [
  ...KINDS.flatMap((kind) =>
    WAYS.map((way) => {
      const of = outcomes.filter((o) => o.c.kind === kind && o.c.way === way);
      return {
        ...zero(
          `${database}: ${kind}, ${way}: wrong of ${of.length}`,
          of.filter((o) => o.wrong.length > 0).length,
        ),
      };
    }),
  ),
  zero(`${database}: credited twice`, outcomes.filter((o) => o.creditedTwice).length),
  zero(
    `${database}: wei unaccounted`,
    Number(
      outcomes.reduce((sum, o) => sum + (o.unaccounted < 0n ? -o.unaccounted : o.unaccounted), 0n),
    ),
  ),
];

export const paymentsRow: Row = {
  name: "payments",
  what: "late, excess, duplicate, after-cancel and contract-sent payments for launch fees, dispersals and paid keys: refunded minus gas or credited once",
  async run(context: RowContext) {
    const rounds = context.mode === "full" ? 3 : 1;
    const all: Figure[] = [];
    all.push(...figures("PGlite", await measure(null, rounds, context.log)));
    if (context.databaseUrl)
      all.push(...figures("Postgres", await measure(context.databaseUrl, rounds, context.log)));
    return all;
  },
};
