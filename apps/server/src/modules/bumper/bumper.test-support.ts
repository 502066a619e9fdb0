import { parseEther } from "viem";
import type { AppOptions } from "../../app.ts";
import { startTestbed, type Testbed } from "../../test/testbed.ts";

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
