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
};
