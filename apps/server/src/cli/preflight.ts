// Proves a setup before money moves, reading only (never sending): the RPC, the launchpad's
// contracts, four.meme's API, the builders, the database, the master key and the treasury.
//   npm run preflight                      (with the environment `npm start` would have)
// Prints one line per check and exits 1 when an essential one fails.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { DEV_TREASURY_ADDRESS } from "../app.ts";
import { parseEnv } from "../config/env.ts";
import { openDatabase } from "../db/client.ts";
import { walletKeys } from "../db/schema.ts";
import { lockDataDir } from "../lib/data-lock.ts";
import { KeyVault } from "../lib/key-vault.ts";
import { loadMasterKey } from "../lib/master-key.ts";
import { openChain, startsLocalChain } from "../lib/open-chain.ts";
import { loadTreasury } from "../lib/treasury-key.ts";
import { PreflightService, preflightLines } from "../modules/preflight/preflight.service.ts";

const say = (line: string) => process.stdout.write(`${line}\n`);

const run = async (): Promise<boolean> => {
  const env = parseEnv();
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  // The embedded database and a local chain started here belong to one process: a server
  // running on this data dir holds them (its admin page runs the same checks).
  const release =
    env.DATABASE_URL && !startsLocalChain(env)
      ? () => {}
      : lockDataDir(
          dataDir,
          "preflight runs",
          "or open the running server's Admin page, Preflight, which runs the same checks",
        );
  const masterKey = loadMasterKey({
    masterKey: env.MASTER_KEY,
    masterKeyFile: env.MASTER_KEY_FILE,
    dataDir,
  });
  const treasury = loadTreasury({
    chain: env.CHAIN,
    privateKey: env.TREASURY_PRIVATE_KEY,
    keyFile: env.TREASURY_KEY_FILE,
    address: env.TREASURY_ADDRESS,
    devAddress: DEV_TREASURY_ADDRESS,
  });
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
  try {
    const [stored] = await database.db.select().from(walletKeys).limit(1);
    const { chain, localChain } = await openChain(env, {
      dataDir,
      masterKey: masterKey.key,
      databaseExisted: Boolean(stored),
      say,
    });
    try {
      const result = await new PreflightService({
        chain,
        db: database.db,
        vault: new KeyVault(database.db, masterKey.key),
        treasury: { address: treasury.address, hasKey: treasury.privateKey !== undefined },
      }).run();
      say(`Preflight of ${env.CHAIN} (${result.checkedAt}):`);
      for (const line of preflightLines(result.checks)) say(`  ${line}`);
      say(
        result.ready
          ? "Ready: every essential check passed."
          : "Not ready: fix what FAIL says, then run npm run preflight again.",
      );
      return result.ready;
    } finally {
      await localChain?.stop();
    }
  } finally {
    await database.close();
    release();
  }
};

run()
  .then((ready) => process.exit(ready ? 0 : 1))
  .catch((error: unknown) => {
    process.stderr.write(
      `Preflight could not run: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
