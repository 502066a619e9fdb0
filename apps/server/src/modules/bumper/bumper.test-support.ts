import type { Bumper } from "@bundler/shared";
import { type Address, parseEther } from "viem";
import { afterAll, beforeAll } from "vitest";
import type { AppOptions } from "../../app.ts";
import { launchBundle } from "../../test/bundles.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { startTestbed, stopTestbed, type Testbed } from "../../test/testbed.ts";

/** One bumper minute lasts 1 s in the bumper's integration files. */
export const BUMPER_MINUTE_MS = 1_000;
/** The builder's tip each bump pays there. */
export const BUMPER_TIP = parseEther("0.0005");

/** `startTestbed` with the bumper's short minute and tip. */
export const startBumperTestbed = (
  masterKey: Buffer,
  overrides: Partial<AppOptions> = {},
): Promise<Testbed> =>
  startTestbed(masterKey, {
    bumper: { minuteMs: BUMPER_MINUTE_MS, tip: BUMPER_TIP },
    ...overrides,
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A bumper testbed for one test file (started before its tests, stopped after): `bed` holds
 * the chain, the app and two users' keys (read them inside a test), with the helpers that
 * drive bumpers through the API as the first user.
 */
export const useBumperTestbed = (masterKey: Buffer) => {
  const bed = {} as Testbed & { otherKey: string };
  beforeAll(async () => {
    Object.assign(bed, await startBumperTestbed(masterKey));
    bed.otherKey = await bed.app.auth.mintKey("user");
  });
  afterAll(() => stopTestbed(bed));

  const call = apiCaller(
    () => bed.app,
    () => bed.key,
  );
  const callAs = apiCaller(
    () => bed.app,
    () => bed.otherKey,
  );
  const setBalance = (address: Address, wei: bigint) =>
    bed.testChain.rpc("anvil_setBalance", [address, `0x${wei.toString(16)}`]);
  const balanceOf = (address: Address) => bed.testChain.chain.client.getBalance({ address });
  /** A bundle of one wallet launched by the first user. */
  const launch = () => launchBundle(bed.app, bed.testChain, bed.key, { wallets: 1 });
  const generate = (targetToken: string, form: Record<string, unknown> = {}) =>
    call("POST", "/api/bumper/generate", {
      targetToken,
      interval: 1,
      duration: 3,
      buySize: 0.01,
      ...form,
    });

  /** Runs passes (the per-block job's work) until `done` or 60 s. */
  const bumpUntil = async (done: (bumper: Bumper) => boolean, id: string): Promise<Bumper> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      await bed.app.transactions?.reconcile();
      await bed.app.bumperEngine?.tick();
      const bumper = (await call("GET", `/api/bumper/${id}`)).body.bumper as Bumper;
      if (done(bumper)) return bumper;
      if (Date.now() > deadline)
        throw new Error(`bumper never got there: ${JSON.stringify(bumper)}`);
      await sleep(300);
    }
  };

  return { bed, call, callAs, setBalance, balanceOf, launch, generate, bumpUntil };
};
