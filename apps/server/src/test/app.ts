import { randomBytes } from "node:crypto";
import type { DeploymentConfig } from "@bundler/shared";
import { parseEther } from "viem";
import { type App, type AppOptions, buildApp, DEV_TREASURY_ADDRESS } from "../app.ts";
import type { Database } from "../db/client.ts";
import { createServices, type Services, workServices } from "../services.ts";
import { createTestDatabase } from "./database.ts";

export const testPublicConfig: DeploymentConfig = {
  chain: "local",
  chainId: 31337,
  explorerUrl: null,
  faucet: true,
  links: { social: "https://x.example", group: "https://t.example", docs: "https://docs.example" },
};

export interface TestApp extends App {
  database: Database;
  /**
   * The services and workers a freshly started process would build on this database (working
   * the queues beside this app's own workers): what a restart (or a second server process)
   * looks like to the work in flight.
   */
  restarted(emit?: (userId: string, message: string) => void): Promise<Services>;
  /** The same services without workers: for calling a worker's pass (`tick`) by hand. */
  fresh(emit?: (userId: string, message: string) => void): Services;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database, for `inject` or for listening on a free port; a random
 * master key unless the caller gives one (a test chain derives its signer from it). Given a
 * `database`, it is a second server process on that database, and `close` leaves it open.
 */
export const createTestApp = async (overrides: Partial<AppOptions> = {}): Promise<TestApp> => {
  const ownsDatabase = !overrides.database;
  const database = overrides.database ?? (await createTestDatabase());
  const options: AppOptions = {
    database,
    publicConfig: testPublicConfig,
    allowedOrigins: [],
    rateLimitPerMinute: 10_000,
    freeKeyLimitPerHour: 10_000,
    bodyLimitBytes: 64 * 1024,
    logLevel: "silent",
    masterKey: randomBytes(32),
    ...overrides,
  };
  const app = await buildApp(options);
  return {
    ...app,
    database,
    restarted: async (emit = () => {}) => {
      const services = fresh(emit);
      await workServices(app.jobs, services);
      return services;
    },
    fresh,
    close: async () => {
      await app.server.close();
      if (ownsDatabase) await database.close();
    },
  };
  function fresh(emit: (userId: string, message: string) => void = () => {}): Services {
    return createServices({
      db: database.db,
      jobs: app.jobs,
      tryLock: (key) => database.tryLock(key),
      masterKey: options.masterKey as Buffer,
      chain: options.chain,
      launchFee: parseEther(options.launchFeeBnb ?? "0.5"),
      paymentWindowSeconds: options.paymentWindowSeconds,
      dispersalWindowSeconds: options.dispersalWindowSeconds,
      treasury: options.treasuryAddress ?? DEV_TREASURY_ADDRESS,
      treasuryKey: options.treasuryKey,
      pricing: options.pricing,
      bnbUsdPrice: options.bnbUsdPrice,
      auth: app.auth,
      transactions: options.transactions,
      bumper: options.bumper,
      logsMaxBlockRange: options.logsMaxBlockRange,
      emit: (userId, _kind, message) => emit(userId, message),
      log: () => {},
    });
  }
};
