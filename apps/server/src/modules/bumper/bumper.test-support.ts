import { parseEther } from "viem";
import type { AppOptions } from "../../app.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";

/** One bumper minute lasts 1 s in the bumper's integration files. */
export const BUMPER_MINUTE_MS = 1_000;
/** The builder's tip each bump pays there. */
export const BUMPER_TIP = parseEther("0.0005");

export interface BumperTestbed {
  testChain: TestChain;
  app: TestApp;
  /** A user's access key. */
  key: string;
}

/** A test chain, the app on it with the bumper's short minute and tip, and a user's key. */
export const startBumperTestbed = async (
  masterKey: Buffer,
  overrides: Partial<AppOptions> = {},
): Promise<BumperTestbed> => {
  const testChain = await startTestChain(masterKey);
  const app = await createTestApp({
    chain: testChain.chain,
    masterKey,
    bumper: { minuteMs: BUMPER_MINUTE_MS, tip: BUMPER_TIP },
    ...overrides,
  });
  return { testChain, app, key: await app.auth.mintKey("user") };
};

/** Closes what `startBumperTestbed` started (either may be missing when it failed halfway). */
export const stopBumperTestbed = async (bed: Partial<BumperTestbed>): Promise<void> => {
  await bed.app?.close();
  await bed.testChain?.stop();
};
