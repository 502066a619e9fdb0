import path from "node:path";
import {
  chainNameSchema,
  FAUCET_PER_MINUTE,
  FREE_KEYS_PER_IP_PER_DAY,
  KEY_PRICING_DEFAULTS,
} from "@bundler/shared";
import proxyAddr from "@fastify/proxy-addr";
import { z } from "zod";
import { DEFAULT_BUNDLE_WINDOW_SECONDS } from "../lib/bundle-window.ts";
import { SERVER_ROOT } from "../paths.ts";
import { builderFields, csv, fortyEightClubRules } from "./env-lists.ts";

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a ${protocols.join(" or ")} URL`,
    );

/** `scheme://host[:port]` exactly as a browser sends it in `Origin`: no path, no trailing slash. */
const isOrigin = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
  } catch {
    return false;
  }
};

const origins = csv.check((context) => {
  for (const entry of context.value.filter((item) => !isOrigin(item))) {
    context.issues.push({
      code: "custom",
      input: context.value,
      message: `${JSON.stringify(entry)} is not an origin (scheme://host[:port], lowercase, no path, no trailing slash)`,
    });
  }
});

/** What Fastify's `trustProxy` compiles: an address, a CIDR range, or one of proxy-addr's names. */
const isProxyAddress = (value: string): boolean => {
  try {
    proxyAddr.compile(value);
    return true;
  } catch {
    return false;
  }
};

// "1" would compile too (ipaddr.js reads it as 0.0.0.1): a bare number is taken for the hop
// count it surely meant.
const isHopCount = (value: string) => /^\d+$/.test(value);

const trustedProxies = csv.check((context) => {
  for (const entry of context.value.filter((item) => isHopCount(item) || !isProxyAddress(item))) {
    context.issues.push({
      code: "custom",
      input: context.value,
      message: isHopCount(entry)
        ? "a hop count is not accepted (Fastify ignores one: it cannot tell a proxy from a client sending X-Forwarded-For itself); name the proxies' addresses, e.g. 10.0.0.0/8"
        : `${JSON.stringify(entry)} is not an IP address or CIDR range (or loopback, linklocal, uniquelocal)`,
    });
  }
});

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** A USD amount as configured: at most 6 integer digits and 6 decimals, kept exact as a string. */
const usd = (fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,6}(\.\d{1,6})?$/, "must be a USD amount like 0.4")
    .default(String(fallback));

const micros = (value: string) => Math.round(Number(value) * 1_000_000);

const fields = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("127.0.0.1"),
  PORT: int(8080).pipe(z.number().max(65535)),
  DATABASE_URL: url(["postgres:", "postgresql:"]).optional(),
  DATA_DIR: z.string().default("./data"),
  CHAIN: chainNameSchema.default("local"),
  RPC_URL: url(["http:", "https:"]).optional(),
  ANVIL_PORT: int(8545, 1).pipe(z.number().max(65535)),
  BLOCK_TIME_SECONDS: z.coerce.number().positive().default(1),
  LOCAL_BUILDER_MAX_TXS: int(50, 3),
  /**
   * The cap of a second local builder ("local-slow": its own tip address, slower to answer)
   * that every bundle small enough also goes to, as bundles go to several builders on BSC;
   * 0 runs none.
   */
  LOCAL_SLOW_BUILDER_MAX_TXS: int(5, 0).refine(
    (cap) => cap === 0 || cap >= 3,
    "must be 0 (no second builder) or at least 3 transactions",
  ),
  /**
   * The dev builder of a local chain another server process started (its banner prints the URL):
   * this process attaches to that chain instead of starting one. Same DATA_DIR (its
   * `chain/deployment.json`), same master key, same DATABASE_URL.
   */
  LOCAL_BUILDER_URL: url(["http:", "https:"]).optional(),
  /** The dev builder's port on a local chain this process starts; 0 picks a free one. */
  LOCAL_BUILDER_PORT: int(0).pipe(z.number().max(65535)),
  /**
   * A JSON-RPC endpoint in front of the local chain's dev builder that this process reads the
   * chain through and sends its transactions to, instead of the builder itself (bundles still go
   * to the builder): the reliability run's unreliable RPC, a proxy that answers like a public
   * load-balanced node (apps/server/src/test/unreliable-rpc.ts).
   */
  LOCAL_RPC_URL: url(["http:", "https:"]).optional(),
  /** NodeReal's bundle endpoint with its key: adds NodeReal to BSC's builders. */
  NODEREAL_BUNDLE_URL: url(["https:", "http:"]).optional(),
  ...builderFields,
  LOCAL_BUILDER_MIN_TIP: z
    .string()
    .regex(/^\d+(\.\d+)?$/, "must be a BNB amount")
    .default("0.0005"),
  /** The BNB a curve raises before it graduates to the DEX, on the local chain's launchpad. */
  GRADUATION_BNB: z
    .string()
    .regex(/^\d+(\.\d{1,18})?$/, "must be a BNB amount")
    .refine((value) => Number(value) > 0, "must be more than 0")
    .default("24"),
  /** The launch fee a draft pays before it can be executed, BNB. */
  LAUNCH_FEE_BNB: z
    .string()
    .regex(/^\d+(\.\d{1,18})?$/, "must be a BNB amount")
    .default("0.5"),
  /** The BNB price in USD on chains without a price feed (BSC itself reads Chainlink's). */
  BNB_USD_PRICE: z.coerce
    .number({ message: "must be a number" })
    .positive("must be a positive number")
    .optional(),
  /** What an access key costs, USD (converted to BNB at the BNB/USD price when a payment starts). */
  KEY_PRICE_USD: usd(KEY_PRICING_DEFAULTS.price),
  /** What a buyer with a referral code saves on a key, USD. */
  REFERRAL_DISCOUNT_USD: usd(KEY_PRICING_DEFAULTS.referralDiscount),
  /**
   * What a referrer earns per key bought with their code, USD; of a referred user's launch fees
   * they earn REFERRAL_REWARD_USD / KEY_PRICE_USD.
   */
  REFERRAL_REWARD_USD: usd(KEY_PRICING_DEFAULTS.referralReward),
  /** Key purchases one client address may start per hour. */
  KEY_PAYMENT_LIMIT_PER_HOUR: int(10, 1),
  /**
   * The treasury wallet's private key (0x + 64 hex), which pays referral claims; or a file holding
   * it (mode 0600). The local profile defaults to anvil dev account 2 (the default TREASURY_ADDRESS).
   */
  TREASURY_PRIVATE_KEY: z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x and 64 hex characters")
    .optional(),
  TREASURY_KEY_FILE: z.string().optional(),
  /** Where received launch fees go; the local profile defaults to anvil dev account 2. */
  TREASURY_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be an address")
    .optional(),
  /** How long a started payment address stays open, seconds. */
  PAYMENT_WINDOW_SECONDS: int(600, 1),
  /** How long a dispersal waits for its funding. */
  DISPERSAL_WINDOW_SECONDS: int(1800, 1),
  /**
   * How long a bundle (launch, sell, auto-sell wave, bump) may wait to land, seconds: turned into
   * blocks at the chain's measured block time (3 to 100 blocks).
   */
  BUNDLE_WINDOW_SECONDS: z.coerce
    .number()
    .positive("must be a positive number")
    .default(DEFAULT_BUNDLE_WINDOW_SECONDS),
  /** How many seconds one bumper minute lasts (60; tests and demos shorten it). */
  BUMPER_MINUTE_SECONDS: z.coerce.number().positive("must be a positive number").default(60),
  /** What each bump's bundle pays its builder, BNB (the local builder asks at least 0.0005). */
  BUMPER_TIP_BNB: z
    .string()
    .regex(/^\d+(\.\d{1,18})?$/, "must be a BNB amount")
    .default("0.0005"),
  /**
   * The most blocks one `eth_getLogs` may span (auto-sell's sniper guards read the launchpad's
   * events in ranges of at most this many blocks): public BSC nodes refuse wide ranges.
   */
  LOGS_MAX_BLOCK_RANGE: int(5_000, 1),
  /** What each sell bundle pays its builder, BNB (paid by its first wallet that can). */
  SELL_TIP_BNB: z
    .string()
    .regex(/^\d+(\.\d{1,18})?$/, "must be a BNB amount")
    .default("0.0005"),
  /** four.meme's API, where launches off the local chain get createToken's signed arguments. */
  FOUR_MEME_API_URL: url(["http:", "https:"]).default("https://four.meme/meme-api/v1"),
  /**
   * How often an idle job worker asks the database for work from other processes, seconds
   * (its own process's work, delays and retries wake it when due).
   */
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(5),
  MASTER_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes)")
    .optional(),
  MASTER_KEY_FILE: z.string().optional(),
  ALLOWED_ORIGINS: origins,
  /**
   * The proxies in front of the server (a load balancer): IP addresses or CIDR ranges, comma
   * separated, or proxy-addr's `loopback`, `linklocal`, `uniquelocal`; Fastify's `trustProxy`.
   * A request from one of them is counted by the client address its `X-Forwarded-For` names
   * (rate limits, free keys per address, socket handshakes). Unset, nobody is trusted. A hop
   * count is refused: Fastify 5.12 ignores one (it would let any client name its own address).
   */
  TRUST_PROXY: trustedProxies,
  SOCIAL_URL: url(["http:", "https:"]).default("https://x.com/launchbundler"),
  GROUP_URL: url(["http:", "https:"]).default("https://t.me/launchbundler"),
  DOCS_URL: url(["http:", "https:"]).default(
    "https://github.com/launch-bundler/launch-bundler#readme",
  ),
  RATE_LIMIT_PER_MINUTE: int(600, 1),
  FREE_KEY_LIMIT_PER_HOUR: int(10, 1),
  /** Faucet requests one address may make per minute (local chain only). */
  FAUCET_PER_MINUTE: int(FAUCET_PER_MINUTE, 1),
  /** socket.io handshakes one address may make per minute (per server process). */
  SOCKET_HANDSHAKES_PER_MINUTE: int(60, 1),
  /** Free keys one client address may get in 24 hours, counted in the database. */
  FREE_KEYS_PER_IP_PER_DAY: int(FREE_KEYS_PER_IP_PER_DAY, 1),
  BODY_LIMIT_BYTES: int(2 * 1024 * 1024, 1024),
  WEB_DIST: z.string().default(path.join(SERVER_ROOT, "../web/dist")),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Crash tests only: failpoint names (lib/failpoints.ts) at which the server kills itself. */
  FAILPOINTS: z.string().optional(),
  /**
   * Tests only: "1" stops the server as SIGTERM does once its standard input closes, that is
   * once the test process that started it (and holds the pipe) is gone, whatever ended it.
   */
  STOP_WHEN_STDIN_CLOSES: z.enum(["0", "1"]).default("0"),
});

const chainOnly = fields.pick({ CHAIN: true });
// BUILDER_MAX_TXS is parsed into an object by then, so these fields are judged by their issues.
const fortyEightFields = ["BUILDER_MAX_TXS", "FORTY_EIGHT_SP_KEY", "FORTY_EIGHT_SP_KEY_FILE"];
const fortyEightValid = (payload: { issues: ReadonlyArray<{ path?: PropertyKey[] }> }) =>
  !payload.issues.some((issue) => fortyEightFields.includes(String(issue.path?.[0])));
const pricingOnly = fields.pick({
  KEY_PRICE_USD: true,
  REFERRAL_DISCOUNT_USD: true,
  REFERRAL_REWARD_USD: true,
});

// Cross-field rules run even when another variable is bad (`when`), so one start lists every
// problem; each runs only when the fields it reads are themselves valid.
const envSchema = fields
  .refine((env) => env.CHAIN === "local" || env.TREASURY_ADDRESS !== undefined, {
    message: "TREASURY_ADDRESS is required off the local chain",
    path: ["TREASURY_ADDRESS"],
    when: (payload) => chainOnly.safeParse(payload.value).success,
  })
  .refine(
    (env) =>
      env.CHAIN === "local" || env.MASTER_KEY !== undefined || env.MASTER_KEY_FILE !== undefined,
    {
      message:
        "MASTER_KEY or MASTER_KEY_FILE is required off the local chain (keep the key outside the data directory)",
      path: ["MASTER_KEY"],
      when: (payload) => chainOnly.safeParse(payload.value).success,
    },
  )
  .refine((env) => env.MASTER_KEY === undefined || env.MASTER_KEY_FILE === undefined, {
    message: "set MASTER_KEY or MASTER_KEY_FILE, not both",
    path: ["MASTER_KEY"],
    when: () => true,
  })
  .refine((env) => env.CHAIN === "local" || !env.LOCAL_BUILDER_URL, {
    message: "LOCAL_BUILDER_URL is for CHAIN=local only",
    path: ["LOCAL_BUILDER_URL"],
    when: (payload) => chainOnly.safeParse(payload.value).success,
  })
  .refine((env) => !env.LOCAL_BUILDER_URL || !env.RPC_URL, {
    message: "set LOCAL_BUILDER_URL or RPC_URL, not both",
    path: ["LOCAL_BUILDER_URL"],
    when: () => true,
  })
  .refine(
    (env) =>
      !env.LOCAL_RPC_URL || (env.CHAIN === "local" && !env.RPC_URL && !env.LOCAL_BUILDER_URL),
    {
      message:
        "LOCAL_RPC_URL is for a local chain this process starts: not with RPC_URL or LOCAL_BUILDER_URL",
      path: ["LOCAL_RPC_URL"],
      when: (payload) => chainOnly.safeParse(payload.value).success,
    },
  )
  .refine((env) => !env.LOCAL_BUILDER_URL || env.DATABASE_URL !== undefined, {
    message:
      "LOCAL_BUILDER_URL is for more server processes on one Postgres: set DATABASE_URL too (the embedded database belongs to one process)",
    path: ["LOCAL_BUILDER_URL"],
    when: () => true,
  })
  .refine((env) => env.TREASURY_PRIVATE_KEY === undefined || env.TREASURY_KEY_FILE === undefined, {
    message: "set TREASURY_PRIVATE_KEY or TREASURY_KEY_FILE, not both",
    path: ["TREASURY_PRIVATE_KEY"],
    when: () => true,
  })
  .refine(
    (env) => env.FORTY_EIGHT_SP_KEY === undefined || env.FORTY_EIGHT_SP_KEY_FILE === undefined,
    {
      message: "set FORTY_EIGHT_SP_KEY or FORTY_EIGHT_SP_KEY_FILE, not both",
      path: ["FORTY_EIGHT_SP_KEY"],
      when: () => true,
    },
  )
  .refine(fortyEightClubRules[0].check, {
    message: fortyEightClubRules[0].message,
    path: ["BUILDER_MAX_TXS"],
    when: fortyEightValid,
  })
  .refine(fortyEightClubRules[1].check, {
    message: fortyEightClubRules[1].message,
    path: ["BUILDER_MAX_TXS"],
    when: fortyEightValid,
  })
  .refine((env) => micros(env.KEY_PRICE_USD) > 0, {
    message: "must be more than 0",
    path: ["KEY_PRICE_USD"],
    when: (payload) => pricingOnly.safeParse(payload.value).success,
  })
  .refine(
    (env) =>
      micros(env.REFERRAL_DISCOUNT_USD) + micros(env.REFERRAL_REWARD_USD) <=
      micros(env.KEY_PRICE_USD),
    {
      message:
        "REFERRAL_DISCOUNT_USD + REFERRAL_REWARD_USD must not exceed KEY_PRICE_USD (a referred key would cost more than it brings)",
      path: ["REFERRAL_DISCOUNT_USD"],
      when: (payload) => pricingOnly.safeParse(payload.value).success,
    },
  )
  .refine((env) => micros(env.REFERRAL_DISCOUNT_USD) < micros(env.KEY_PRICE_USD), {
    message: "must be less than KEY_PRICE_USD",
    path: ["REFERRAL_DISCOUNT_USD"],
    when: (payload) => pricingOnly.safeParse(payload.value).success,
  })
  .refine((env) => env.CHAIN === "local" || !env.FAILPOINTS, {
    message: "failpoints are for crash tests on the local chain only",
    path: ["FAILPOINTS"],
    when: (payload) => chainOnly.safeParse(payload.value).success,
  });

export type Env = z.infer<typeof envSchema>;

/** Never echoed back in an error: they hold credentials. */
const SECRET_VARIABLES = new Set([
  "MASTER_KEY",
  "TREASURY_PRIVATE_KEY",
  "DATABASE_URL",
  "RPC_URL",
  "NODEREAL_BUNDLE_URL",
  "BUILDER_URLS",
  "BUILDER_AUTH",
  "FORTY_EIGHT_SP_KEY",
]);

/** One line naming every bad variable, so a wrong start is fixed in one go. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** Parses the environment once; empty strings count as unset. */
export const parseEnv = (source: Record<string, string | undefined> = process.env): Env => {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const result = envSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.join(".") || "environment";
    const name = typeof issue.path[0] === "string" ? issue.path[0] : "";
    const value = SECRET_VARIABLES.has(name) ? undefined : cleaned[name];
    return `${variable}${value === undefined ? "" : `=${JSON.stringify(value)}`}: ${issue.message}`;
  });
  throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
};
