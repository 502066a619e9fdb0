import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.ts";

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

  it("refuses both MASTER_KEY and MASTER_KEY_FILE", () => {
    expect(() => parseEnv({ MASTER_KEY: "a".repeat(64), MASTER_KEY_FILE: "/k" })).toThrow(
      /MASTER_KEY: set MASTER_KEY or MASTER_KEY_FILE, not both/,
    );
  });

  it("splits the allowed origins list", () => {
    const env = parseEnv({ ALLOWED_ORIGINS: "https://a.example, https://b.example" });
    expect(env.ALLOWED_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
  });
});

describe("parseEnv errors", () => {
  it("never echo a secret's value", () => {
    expect(() => parseEnv({ MASTER_KEY: "secret-value" })).toThrow(/MASTER_KEY: must be 64 hex/);
    expect(() => parseEnv({ MASTER_KEY: "secret-value" })).not.toThrow(/secret-value/);
  });
});
