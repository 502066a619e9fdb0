import type { PublicConfig } from "@bundler/shared";
import { type App, type AppOptions, buildApp } from "../app.ts";
import type { Database } from "../db/client.ts";
import { createTestDatabase } from "./database.ts";

export const testPublicConfig: PublicConfig = {
  chain: "local",
  chainId: 31337,
  explorerUrl: null,
  faucet: true,
  links: { social: "https://x.example", group: "https://t.example", docs: "https://docs.example" },
};

export interface TestApp extends App {
  database: Database;
  close(): Promise<void>;
}

/** The real app on a fresh database, for `inject` or for listening on a free port. */
export const createTestApp = async (overrides: Partial<AppOptions> = {}): Promise<TestApp> => {
  const database = await createTestDatabase();
  const app = await buildApp({
    database,
    publicConfig: testPublicConfig,
    allowedOrigins: [],
    rateLimitPerMinute: 10_000,
    freeKeyLimitPerHour: 10_000,
    bodyLimitBytes: 64 * 1024,
    logLevel: "silent",
    ...overrides,
  });
  return {
    ...app,
    database,
    close: async () => {
      await app.server.close();
      await database.close();
    },
  };
};
