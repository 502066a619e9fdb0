import { FORTY_EIGHT_CLUB_TIERS, FORTY_EIGHT_CLUB_UNSIGNED_CAP } from "@bundler/chain";
import { parseGwei } from "viem";
import { z } from "zod";

/** A comma-separated list, each item trimmed, empty ones dropped. */
export const csv = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** "blockrazor=15,nodereal=50": a bundle size cap per builder name. */
const builderCaps = csv
  .pipe(z.array(z.string().regex(/^[\w-]+=\d+$/, 'must be name=count pairs, e.g. "blockrazor=15"')))
  .transform((pairs) =>
    Object.fromEntries(pairs.map((pair) => [pair.split("=")[0], Number(pair.split("=")[1])])),
  );

/** "name=value,name=value": one value per builder name (a value may hold "=", not ","). */
const perBuilder = (what: string, example: string, valid: (value: string) => boolean) =>
  csv
    .pipe(
      z.array(
        z
          .string()
          .regex(/^[\w-]+=.+$/, `must be name=${what} pairs, e.g. "${example}"`)
          .refine((pair) => valid(pair.slice(pair.indexOf("=") + 1)), {
            message: `must be name=${what} pairs, e.g. "${example}"`,
          }),
      ),
    )
    .transform((pairs) =>
      Object.fromEntries(
        pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
      ),
    );
const isHttpUrl = (value: string) => {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** Each bundle builder's settings off the local chain, by builder name. */
export const builderFields = {
  /** Bundle size caps for your builder tiers off the local chain. */
  BUILDER_MAX_TXS: builderCaps,
  /** Another endpoint per builder (a regional one), e.g. "blockrazor=https://…". */
  BUILDER_URLS: perBuilder("URL", "blockrazor=https://frankfurt.builder.blockrazor.io", isHttpUrl),
  /** Each keyed builder's Authorization header value; never logged or echoed. */
  BUILDER_AUTH: perBuilder("token", "blockrazor=<your key>", (value) => value.trim() !== ""),
  /** Each builder's lowest gas price, gwei: a bundle priced under it is not sent there. */
  BUILDER_MIN_GAS_GWEI: perBuilder("gwei", "nodereal=0.1", (value) =>
    /^\d+(\.\d{1,9})?$/.test(value),
  ).transform((floors) =>
    Object.fromEntries(Object.entries(floors).map(([name, gwei]) => [name, parseGwei(gwei)])),
  ),
  /**
   * A 48 Soul Point member's private key (0x + 64 hex), or a file holding it (mode 0600): bundles
   * to 48 Club carry its `48spSign` and take its tier's cap. Never stored, logged or echoed.
   */
  FORTY_EIGHT_SP_KEY: z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x and 64 hex characters")
    .optional(),
  FORTY_EIGHT_SP_KEY_FILE: z.string().optional(),
};

type BuilderEnv = {
  BUILDER_MAX_TXS: Record<string, number>;
  FORTY_EIGHT_SP_KEY?: string | undefined;
  FORTY_EIGHT_SP_KEY_FILE?: string | undefined;
};

const keyed = (env: BuilderEnv) =>
  env.FORTY_EIGHT_SP_KEY !== undefined || env.FORTY_EIGHT_SP_KEY_FILE !== undefined;

/** 48 Club's declared cap against its key: more than 5 only signed, and then a tier's. */
export const fortyEightClubRules = [
  {
    check: (env: BuilderEnv) =>
      keyed(env) || (env.BUILDER_MAX_TXS["48club"] ?? 0) <= FORTY_EIGHT_CLUB_UNSIGNED_CAP,
    message: `48club takes more than ${FORTY_EIGHT_CLUB_UNSIGNED_CAP} transactions only from bundles signed with 48spSign: set FORTY_EIGHT_SP_KEY or FORTY_EIGHT_SP_KEY_FILE to a 48 Soul Point member's key, or declare 48club=${FORTY_EIGHT_CLUB_UNSIGNED_CAP} or less`,
  },
  {
    check: (env: BuilderEnv) => {
      const cap = env.BUILDER_MAX_TXS["48club"];
      return (
        !keyed(env) ||
        cap === undefined ||
        (FORTY_EIGHT_CLUB_TIERS as readonly number[]).includes(cap)
      );
    },
    message: `with a 48 Soul Point key, 48club's cap is its tier's: 6 (signed guest), 10 (48 SP or more), 15 (100 SP or more) or 50 (480 SP or more)`,
  },
] as const;
