import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { LOCAL_TIP_ADDRESS } from "../apps/server/src/lib/local-chain.ts";
import { crashServer } from "../apps/server/src/test/crash-server.ts";
import { createPostgresDatabase } from "../apps/server/src/test/database.ts";
import { seeded } from "../apps/server/src/test/seeded.ts";
import { kindsToRun, runTrials, tallyFigures } from "./crashes/trials.ts";
import { KINDS, prepare, type Shared } from "./crashes/work.ts";
import type { Figure, Row } from "./row.ts";

/** How long each kind of work runs, roughly (ms): a random kill lands within it. */
const SPAN: Record<(typeof KINDS)[number], number> = {
  launch: 6000,
  "fee payment": 4000,
  dispersal: 15000,
  sell: 3000,
  bump: 6000,
  "claim payout": 4000,
  "auto-sell firing": 4000,
};

/** The trials on one database: PGlite in the server's data dir, or a fresh Postgres one. */
const trialsOn = async (
  name: string,
  databaseUrl: string | undefined,
  trials: number,
  kinds: readonly (typeof KINDS)[number][],
  random: () => number,
  log: (line: string) => void,
): Promise<Figure[]> => {
  const database = databaseUrl ? await createPostgresDatabase(databaseUrl) : undefined;
  const treasuryKey = generatePrivateKey();
  const treasury = privateKeyToAccount(treasuryKey).address;
  const server = crashServer("crashes-row", {
    LAUNCH_FEE_BNB: "0.01",
    BUMPER_MINUTE_SECONDS: "1",
    // Every claim trial buys a key from this one client address.
    KEY_PAYMENT_LIMIT_PER_HOUR: "1000",
    TREASURY_PRIVATE_KEY: treasuryKey,
    TREASURY_ADDRESS: treasury,
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  const shared: Shared = { referrals: 0 };
  log(`${name}:`);
  try {
    await server.start();
    await server.setBalance(treasury, parseEther("10"));
    const tally = await runTrials({
      server,
      trials,
      kinds,
      prepare: (kind) => prepare(kind, server, shared, treasury as Address),
      span: (kind) => SPAN[kind],
      random,
      closedWith: [...server.contracts(), LOCAL_TIP_ADDRESS],
      log,
    });
    return tallyFigures(name, tally);
  } finally {
    await server.remove();
    await database?.drop();
  }
};

/**
 * The reduced run (inside `npm test`) leaves out the kinds that have a crash test of their own
 * in the integration project (disperse.crash and bumper.crash kill those at every step kind and
 * at random moments), so each is killed once a run, not twice; the launch stays, since the
 * sell and auto-sell trials sell its tokens. The auto-sell firing stays too (about 8 s): its
 * crash test kills one ladder at chosen moments, this trial at a seeded one, on every database
 * the row measures. The full run kills every kind.
 */
const REDUCED_KINDS = KINDS.filter((kind) => kind !== "dispersal" && kind !== "bump");

export const crashesRow: Row = {
  name: "crashes",
  what: "SIGKILL the real server at a random moment (seeded delay or failpoint) during a launch, a fee payment, a dispersal, a sell, a bump, a claim payout and an auto-sell firing; restart; let the work finish",
  async run(context) {
    // CRASHES_KINDS="claim payout,dispersal" runs only those kinds (a sell or bump needs a
    // launch), CRASHES_TRIALS=n that many trials (on each database).
    const kinds = kindsToRun(KINDS, REDUCED_KINDS, context.mode, process.env.CRASHES_KINDS);
    const trials = Number(
      process.env.CRASHES_TRIALS ?? (context.mode === "full" ? 50 : kinds.length),
    );
    const seed = Number(process.env.CRASHES_SEED ?? Date.now() % 1_000_000);
    context.log(
      `crashes: ${trials} trials a database, seed ${seed} (CRASHES_SEED=${seed} replays them)`,
    );
    const figures = await trialsOn("PGlite", undefined, trials, kinds, seeded(seed), context.log);
    if (context.databaseUrl)
      figures.push(
        ...(await trialsOn(
          "Postgres",
          context.databaseUrl,
          trials,
          kinds,
          seeded(seed),
          context.log,
        )),
      );
    return figures;
  },
};
