// Lists the background jobs that used up their retries (newest first):
//   npm run jobs:failed [-- --limit 20]
// With the embedded database, stop the server first (one process owns its files).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseEnv } from "../config/env.ts";
import { openDatabase } from "../db/client.ts";
import { lockDataDir } from "../lib/data-lock.ts";
import { failedJobs } from "../lib/jobs.ts";

const run = async () => {
  const { values } = parseArgs({ options: { limit: { type: "string", default: "50" } } });
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new Error("--limit must be a whole number ≥ 1");
  const env = parseEnv();
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const release = env.DATABASE_URL ? () => {} : lockDataDir(dataDir, "failed jobs are listed");
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
  try {
    const rows = await failedJobs(database.db, limit);
    if (rows.length === 0) process.stdout.write("No failed jobs.\n");
    for (const job of rows) {
      const error =
        (job.error as { message?: string } | null)?.message ?? JSON.stringify(job.error);
      process.stdout.write(
        `${job.completedOn?.toISOString() ?? "-"}  ${job.queue}  ${job.id}  after ${job.retryCount + 1} attempt(s)\n  data: ${JSON.stringify(job.data)}\n  error: ${error}\n`,
      );
    }
  } finally {
    await database.close();
    release();
  }
};

run().catch((error: unknown) => {
  process.stderr.write(
    `Cannot list failed jobs: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
