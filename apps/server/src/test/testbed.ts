import type { AppOptions } from "../app.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { startTestChain, type TestChain } from "./chain.ts";

/** What most server integration files start with: a test chain, the app on it, a user's key. */
export interface Testbed {
  testChain: TestChain;
  app: TestApp;
  /** A user's access key. */
  key: string;
}

/** Starts a test chain, the app on it (with `overrides`) and mints a user's key. */
export const startTestbed = async (
  masterKey: Buffer,
  overrides: Partial<AppOptions> = {},
): Promise<Testbed> => {
  const testChain = await startTestChain(masterKey);
  const app = await createTestApp({ chain: testChain.chain, masterKey, ...overrides });
  return { testChain, app, key: await app.auth.mintKey("user") };
};

/** Closes what `startTestbed` started (either may be missing when it failed halfway). */
export const stopTestbed = async (bed: Partial<Testbed>): Promise<void> => {
  await bed.app?.close();
  await bed.testChain?.stop();
};
