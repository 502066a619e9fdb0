import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.ts";

/** The one-line message a bad environment stops the start with. */
const problemsOf = (source: Record<string, string>): string => {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
};

describe("parseEnv", () => {
  it("gives a laptop the embedded defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(8080);
    expect(env.CHAIN).toBe("local");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toBe("./data");
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ PORT: "", CHAIN: " " }).PORT).toBe(8080);
  });

  it("rejects an unknown chain with a one-line reason", () => {
    expect(() => parseEnv({ CHAIN: "ethereum" })).toThrow(ConfigError);
    expect(() => parseEnv({ CHAIN: "ethereum" })).toThrow(
      /^invalid configuration: CHAIN="ethereum"/,
    );
  });

  it("lists every bad variable at once", () => {
    try {
      parseEnv({ CHAIN: "eth", DATABASE_URL: "mysql://x", PORT: "99999", RPC_URL: "not a url" });
      expect.unreachable();
    } catch (error) {
      const message = (error as Error).message;
      for (const variable of ["CHAIN", "DATABASE_URL", "PORT", "RPC_URL"]) {
        expect(message).toContain(variable);
      }
      expect(message).not.toContain("\n");
    }
  });

  it("trusts no proxy unless TRUST_PROXY names addresses or CIDR ranges", () => {
    expect(parseEnv({}).TRUST_PROXY).toEqual([]);
    expect(parseEnv({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8,::1,uniquelocal" }).TRUST_PROXY).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
      "uniquelocal",
    ]);
    expect(problemsOf({ TRUST_PROXY: "10.0.0.0/8,proxy.example" })).toBe(
      'invalid configuration: TRUST_PROXY="10.0.0.0/8,proxy.example": "proxy.example" is not an IP address or CIDR range (or loopback, linklocal, uniquelocal)',
    );
    expect(problemsOf({ TRUST_PROXY: "1" })).toMatch(
      /TRUST_PROXY="1": a hop count is not accepted/,
    );
    expect(problemsOf({ TRUST_PROXY: "true" })).toMatch(/"true" is not an IP address/);
  });

  it("takes LOCAL_BUILDER_URL only on the local chain, with Postgres and without RPC_URL", () => {
    const postgres = { DATABASE_URL: "postgres://db.example/app" };
    const builder = { LOCAL_BUILDER_URL: "http://127.0.0.1:40123" };
    expect(parseEnv({ ...builder, ...postgres }).LOCAL_BUILDER_URL).toBe("http://127.0.0.1:40123");
    expect(problemsOf(builder)).toBe(
      `invalid configuration: LOCAL_BUILDER_URL="http://127.0.0.1:40123": LOCAL_BUILDER_URL is for more server processes on one Postgres: set DATABASE_URL too (the embedded database belongs to one process)`,
    );
    expect(problemsOf({ ...builder, ...postgres, RPC_URL: "http://127.0.0.1:8545" })).toMatch(
      /LOCAL_BUILDER_URL=.*: set LOCAL_BUILDER_URL or RPC_URL, not both/,
    );
    expect(
      problemsOf({
        ...builder,
        ...postgres,
        CHAIN: "bsc",
        MASTER_KEY: "a".repeat(64),
        TREASURY_ADDRESS: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      }),
    ).toMatch(/LOCAL_BUILDER_URL=.*: LOCAL_BUILDER_URL is for CHAIN=local only$/);
  });

  it("takes LOCAL_RPC_URL and LOCAL_BUILDER_PORT only for a local chain the process starts", () => {
    const front = { LOCAL_RPC_URL: "http://127.0.0.1:40124", LOCAL_BUILDER_PORT: "40125" };
    const env = parseEnv(front);
    expect(env.LOCAL_RPC_URL).toBe("http://127.0.0.1:40124");
    expect(env.LOCAL_BUILDER_PORT).toBe(40125);
    expect(parseEnv({}).LOCAL_BUILDER_PORT).toBe(0);
    expect(problemsOf({ ...front, RPC_URL: "http://127.0.0.1:8545" })).toMatch(
      /LOCAL_RPC_URL=.*: LOCAL_RPC_URL is for a local chain this process starts: not with RPC_URL or LOCAL_BUILDER_URL$/,
    );
    expect(
      problemsOf({
        ...front,
        DATABASE_URL: "postgres://db.example/app",
        LOCAL_BUILDER_URL: "http://127.0.0.1:40123",
      }),
    ).toMatch(/LOCAL_RPC_URL is for a local chain this process starts/);
    expect(
      problemsOf({
        ...front,
        CHAIN: "bsc",
        MASTER_KEY: "a".repeat(64),
        TREASURY_ADDRESS: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      }),
    ).toMatch(/LOCAL_RPC_URL is for a local chain this process starts/);
  });

  it("refuses both MASTER_KEY and MASTER_KEY_FILE", () => {
    expect(() => parseEnv({ MASTER_KEY: "a".repeat(64), MASTER_KEY_FILE: "/k" })).toThrow(
      /MASTER_KEY: set MASTER_KEY or MASTER_KEY_FILE, not both/,
    );
  });

  it("requires a treasury address off the local chain", () => {
    expect(() => parseEnv({ CHAIN: "bsc" })).toThrow(
      /TREASURY_ADDRESS: TREASURY_ADDRESS is required off the local chain/,
    );
  });

  it("requires MASTER_KEY or MASTER_KEY_FILE off the local chain", () => {
    const treasury = { TREASURY_ADDRESS: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" };
    for (const CHAIN of ["bsc", "bsc-testnet"])
      expect(problemsOf({ CHAIN, ...treasury })).toBe(
        "invalid configuration: MASTER_KEY: MASTER_KEY or MASTER_KEY_FILE is required off the local chain (keep the key outside the data directory)",
      );
    expect(parseEnv({ CHAIN: "bsc", ...treasury, MASTER_KEY_FILE: "/run/secrets/mk" }).CHAIN).toBe(
      "bsc",
    );
    expect(parseEnv({ CHAIN: "bsc", ...treasury, MASTER_KEY: "a".repeat(64) }).CHAIN).toBe("bsc");
    expect(parseEnv({}).MASTER_KEY_FILE).toBeUndefined();
  });

  it("reports the cross-field rules together with every other bad variable", () => {
    const message = problemsOf({
      CHAIN: "bsc",
      PORT: "http",
      MASTER_KEY: "a".repeat(64),
      MASTER_KEY_FILE: "/k",
      ALLOWED_ORIGINS: "https://a.example/",
    });
    expect(message).toContain("PORT=");
    expect(message).toContain("TREASURY_ADDRESS is required off the local chain");
    expect(message).toContain("set MASTER_KEY or MASTER_KEY_FILE, not both");
    expect(message).toContain("ALLOWED_ORIGINS");
  });

  it("does not ask for a treasury address when the chain itself is unknown", () => {
    const message = problemsOf({ CHAIN: "ethereum" });
    expect(message).toContain('CHAIN="ethereum"');
    expect(message).not.toContain("TREASURY_ADDRESS");
  });

  it("allows 20 free keys per client address per day unless FREE_KEYS_PER_IP_PER_DAY says otherwise", () => {
    expect(parseEnv({}).FREE_KEYS_PER_IP_PER_DAY).toBe(20);
    expect(parseEnv({ FREE_KEYS_PER_IP_PER_DAY: "5" }).FREE_KEYS_PER_IP_PER_DAY).toBe(5);
    expect(problemsOf({ FREE_KEYS_PER_IP_PER_DAY: "0" })).toMatch(/FREE_KEYS_PER_IP_PER_DAY="0"/);
  });

  it("reads the launchpad's events 5,000 blocks at a time unless LOGS_MAX_BLOCK_RANGE says otherwise", () => {
    expect(parseEnv({}).LOGS_MAX_BLOCK_RANGE).toBe(5_000);
    expect(parseEnv({ LOGS_MAX_BLOCK_RANGE: "1000" }).LOGS_MAX_BLOCK_RANGE).toBe(1_000);
    expect(problemsOf({ LOGS_MAX_BLOCK_RANGE: "0" })).toMatch(/LOGS_MAX_BLOCK_RANGE="0"/);
  });

  it("allows 60 socket handshakes per address per minute unless SOCKET_HANDSHAKES_PER_MINUTE says otherwise", () => {
    expect(parseEnv({}).SOCKET_HANDSHAKES_PER_MINUTE).toBe(60);
    expect(parseEnv({ SOCKET_HANDSHAKES_PER_MINUTE: "120" }).SOCKET_HANDSHAKES_PER_MINUTE).toBe(
      120,
    );
    expect(problemsOf({ SOCKET_HANDSHAKES_PER_MINUTE: "0" })).toMatch(
      /SOCKET_HANDSHAKES_PER_MINUTE="0"/,
    );
  });

  it("splits the allowed origins list", () => {
    const env = parseEnv({ ALLOWED_ORIGINS: "https://a.example, https://b.example" });
    expect(env.ALLOWED_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
  });
});

describe("ALLOWED_ORIGINS", () => {
  it("accepts origins with and without a port", () => {
    const env = parseEnv({ ALLOWED_ORIGINS: "http://localhost:5173,https://app.example" });
    expect(env.ALLOWED_ORIGINS).toEqual(["http://localhost:5173", "https://app.example"]);
  });

  it.each([
    ["a trailing slash", "https://app.example/"],
    ["a path", "https://app.example/app"],
    ["no scheme", "app.example"],
    ["a scheme other than http or https", "ftp://app.example"],
    ["a query", "https://app.example?x=1"],
    ["upper-case letters a browser never sends", "https://App.example"],
  ])("rejects an entry with %s, naming it", (_, entry) => {
    const message = problemsOf({ ALLOWED_ORIGINS: `https://ok.example,${entry}` });
    expect(message).toContain(`${JSON.stringify(entry)} is not an origin`);
    expect(message).not.toContain('"https://ok.example" is not');
  });
});

describe("parseEnv errors", () => {
  it("reads BNB_USD_PRICE as a positive number and refuses anything else", () => {
    expect(parseEnv({ BNB_USD_PRICE: "612.5" }).BNB_USD_PRICE).toBe(612.5);
    expect(parseEnv({}).BNB_USD_PRICE).toBeUndefined();
    expect(problemsOf({ BNB_USD_PRICE: "-1" })).toMatch(/BNB_USD_PRICE/);
    expect(problemsOf({ BNB_USD_PRICE: "cheap" })).toMatch(/BNB_USD_PRICE/);
  });

  it("never echo a secret's value", () => {
    expect(() => parseEnv({ MASTER_KEY: "secret-value" })).toThrow(/MASTER_KEY: must be 64 hex/);
    expect(() => parseEnv({ MASTER_KEY: "secret-value" })).not.toThrow(/secret-value/);
  });

  it("points launches at four.meme's API unless told otherwise, and refuses a bad URL", () => {
    expect(parseEnv({}).FOUR_MEME_API_URL).toBe("https://four.meme/meme-api/v1");
    expect(parseEnv({ FOUR_MEME_API_URL: "http://127.0.0.1:9/api" }).FOUR_MEME_API_URL).toBe(
      "http://127.0.0.1:9/api",
    );
    expect(() => parseEnv({ FOUR_MEME_API_URL: "four.meme" })).toThrow(/FOUR_MEME_API_URL/);
  });
});

describe("parseEnv builder settings", () => {
  it("reads bundle caps as name=count pairs and refuses other shapes", () => {
    expect(parseEnv({ BUILDER_MAX_TXS: "blockrazor=15, nodereal=50" }).BUILDER_MAX_TXS).toEqual({
      blockrazor: 15,
      nodereal: 50,
    });
    expect(parseEnv({}).BUILDER_MAX_TXS).toEqual({});
    expect(() => parseEnv({ BUILDER_MAX_TXS: "blockrazor:15" })).toThrow(
      /BUILDER_MAX_TXS.*must be name=count pairs/,
    );
  });

  it("reads each builder's endpoint, key and gas floor as name=value pairs, a key keeping its =", () => {
    const env = parseEnv({
      BUILDER_URLS: "blockrazor=https://frankfurt.builder.blockrazor.io",
      BUILDER_AUTH: "blockrazor=abc==",
      BUILDER_MIN_GAS_GWEI: "nodereal=0.1, blockrazor=0.05",
    });
    expect(env.BUILDER_URLS).toEqual({ blockrazor: "https://frankfurt.builder.blockrazor.io" });
    expect(env.BUILDER_AUTH).toEqual({ blockrazor: "abc==" });
    expect(env.BUILDER_MIN_GAS_GWEI).toEqual({ nodereal: 100_000_000n, blockrazor: 50_000_000n });
    expect(parseEnv({}).BUILDER_AUTH).toEqual({});
  });

  it("refuses a builder URL that is not http(s) and a floor that is not gwei, naming the variable", () => {
    expect(() => parseEnv({ BUILDER_URLS: "blockrazor=ftp://x" })).toThrow(
      /BUILDER_URLS.*must be name=URL pairs/,
    );
    expect(() => parseEnv({ BUILDER_MIN_GAS_GWEI: "nodereal=cheap" })).toThrow(
      /BUILDER_MIN_GAS_GWEI.*must be name=gwei pairs/,
    );
  });

  it("never echoes a builder's key or endpoint", () => {
    expect(() => parseEnv({ BUILDER_AUTH: "secret-key-9" })).toThrow(/BUILDER_AUTH/);
    expect(() => parseEnv({ BUILDER_AUTH: "secret-key-9" })).not.toThrow(/secret-key-9/);
    expect(() => parseEnv({ BUILDER_URLS: "blockrazor=ftp://k-77" })).not.toThrow(/k-77/);
  });

  it("never echoes NodeReal's keyed URL", () => {
    expect(() => parseEnv({ NODEREAL_BUNDLE_URL: "ftp://key-123" })).not.toThrow(/key-123/);
  });
  it("prices a key at 4 USD with a 0.6 USD referral discount and a 0.4 USD reward by default", () => {
    const env = parseEnv({});
    expect([env.KEY_PRICE_USD, env.REFERRAL_DISCOUNT_USD, env.REFERRAL_REWARD_USD]).toEqual([
      "4",
      "0.6",
      "0.4",
    ]);
    expect(parseEnv({ KEY_PRICE_USD: "10", REFERRAL_REWARD_USD: "1.5" }).REFERRAL_REWARD_USD).toBe(
      "1.5",
    );
  });

  it("refuses pricing where a referred key would cost more than it brings", () => {
    expect(problemsOf({ KEY_PRICE_USD: "0" })).toContain('KEY_PRICE_USD="0": must be more than 0');
    expect(problemsOf({ KEY_PRICE_USD: "1", REFERRAL_DISCOUNT_USD: "1" })).toContain(
      'REFERRAL_DISCOUNT_USD="1": must be less than KEY_PRICE_USD',
    );
    expect(problemsOf({ KEY_PRICE_USD: "1", REFERRAL_REWARD_USD: "0.5" })).toContain(
      "REFERRAL_DISCOUNT_USD + REFERRAL_REWARD_USD must not exceed KEY_PRICE_USD",
    );
    expect(problemsOf({ REFERRAL_REWARD_USD: "-1" })).toContain("must be a USD amount like 0.4");
  });

  it("takes the treasury key from TREASURY_PRIVATE_KEY or TREASURY_KEY_FILE, never both, and never echoes it", () => {
    const key = `0x${"ab".repeat(32)}`;
    expect(parseEnv({ TREASURY_PRIVATE_KEY: key }).TREASURY_PRIVATE_KEY).toBe(key);
    expect(problemsOf({ TREASURY_PRIVATE_KEY: key, TREASURY_KEY_FILE: "/k" })).toContain(
      "set TREASURY_PRIVATE_KEY or TREASURY_KEY_FILE, not both",
    );
    const bad = problemsOf({ TREASURY_PRIVATE_KEY: "0xsecret-123" });
    expect(bad).toContain("TREASURY_PRIVATE_KEY: must be 0x and 64 hex characters");
    expect(bad).not.toContain("secret-123");
  });
});
