// Mints an access key from the command line:
//   npm run admin:key -- --role superadmin
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROLES, type Role } from "@bundler/shared";
import { parseEnv } from "../config/env.ts";
import { openDatabase } from "../db/client.ts";
import { lockDataDir } from "../lib/data-lock.ts";
import { AuthRepository } from "../modules/auth/auth.repository.ts";
import { AuthService } from "../modules/auth/auth.service.ts";

const run = async () => {
  const { values } = parseArgs({ options: { role: { type: "string", default: "superadmin" } } });
  const role = values.role as Role;
  if (!ROLES.includes(role)) {
    throw new Error(`--role must be one of ${ROLES.join(", ")} (got ${values.role})`);
  }
  const env = parseEnv();
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const release = env.DATABASE_URL ? () => {} : lockDataDir(dataDir, "key is minted");
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
  try {
    const key = await new AuthService(new AuthRepository(database.db)).mintKey(role);
    process.stdout.write(`New ${role} access key (shown once): ${key}\n`);
  } finally {
    await database.close();
    release();
  }
};

run().catch((error: unknown) => {
  process.stderr.write(
    `Cannot mint a key: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
