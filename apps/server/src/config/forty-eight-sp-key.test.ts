import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.ts";
import { loadFortyEightSpSigner } from "./forty-eight-sp-key.ts";

const KEY = `0x${"4a".repeat(32)}` as const;

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

describe("parseEnv: the 48 Soul Point key and 48 Club's tier", () => {
  it("takes the key from FORTY_EIGHT_SP_KEY or FORTY_EIGHT_SP_KEY_FILE, never both", () => {
    expect(parseEnv({ FORTY_EIGHT_SP_KEY: KEY }).FORTY_EIGHT_SP_KEY).toBe(KEY);
    expect(parseEnv({ FORTY_EIGHT_SP_KEY_FILE: "/k" }).FORTY_EIGHT_SP_KEY_FILE).toBe("/k");
    expect(problemsOf({ FORTY_EIGHT_SP_KEY: KEY, FORTY_EIGHT_SP_KEY_FILE: "/k" })).toContain(
      "FORTY_EIGHT_SP_KEY: set FORTY_EIGHT_SP_KEY or FORTY_EIGHT_SP_KEY_FILE, not both",
    );
  });

  it("refuses a key that is not 0x and 64 hex characters, without echoing it", () => {
    const bad = problemsOf({ FORTY_EIGHT_SP_KEY: "0xsecret-48" });
    expect(bad).toContain("FORTY_EIGHT_SP_KEY: must be 0x and 64 hex characters");
    expect(bad).not.toContain("secret-48");
    // Both set, one of them bad: still nothing of the key in the words.
    expect(problemsOf({ FORTY_EIGHT_SP_KEY: KEY, FORTY_EIGHT_SP_KEY_FILE: "/k" })).not.toContain(
      "4a4a",
    );
  });

  it("refuses a 48 Club cap over 5 declared without a key, saying why", () => {
    expect(problemsOf({ BUILDER_MAX_TXS: "48club=10" })).toBe(
      `invalid configuration: BUILDER_MAX_TXS="48club=10": 48club takes more than 5 transactions only from bundles signed with 48spSign: set FORTY_EIGHT_SP_KEY or FORTY_EIGHT_SP_KEY_FILE to a 48 Soul Point member's key, or declare 48club=5 or less`,
    );
    expect(parseEnv({ BUILDER_MAX_TXS: "48club=4" }).BUILDER_MAX_TXS).toEqual({ "48club": 4 });
  });

  it("takes a declared tier with a key, and refuses a cap that is no tier", () => {
    for (const cap of [6, 10, 15, 50])
      expect(
        parseEnv({ FORTY_EIGHT_SP_KEY: KEY, BUILDER_MAX_TXS: `48club=${cap}` }).BUILDER_MAX_TXS,
      ).toEqual({ "48club": cap });
    for (const cap of [5, 20])
      expect(problemsOf({ FORTY_EIGHT_SP_KEY_FILE: "/k", BUILDER_MAX_TXS: `48club=${cap}` })).toBe(
        `invalid configuration: BUILDER_MAX_TXS="48club=${cap}": with a 48 Soul Point key, 48club's cap is its tier's: 6 (signed guest), 10 (48 SP or more), 15 (100 SP or more) or 50 (480 SP or more)`,
      );
  });
});

describe("loadFortyEightSpSigner", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sp-key-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const member = privateKeyToAccount(KEY).address;

  it("has no signer without a key", () => {
    expect(loadFortyEightSpSigner({})).toBeUndefined();
  });

  it("signs as the member whose key FORTY_EIGHT_SP_KEY holds", () => {
    expect(loadFortyEightSpSigner({ FORTY_EIGHT_SP_KEY: KEY })?.address).toBe(member);
  });

  it("reads the key from FORTY_EIGHT_SP_KEY_FILE, mode 0600", () => {
    const file = path.join(dir, "sp.key");
    writeFileSync(file, `${KEY}\n`, { mode: 0o600 });
    expect(loadFortyEightSpSigner({ FORTY_EIGHT_SP_KEY_FILE: file })?.address).toBe(member);
  });

  it("refuses a missing file, one others may read and one holding no key, never saying the key", () => {
    expect(() =>
      loadFortyEightSpSigner({ FORTY_EIGHT_SP_KEY_FILE: path.join(dir, "none.key") }),
    ).toThrow(`invalid configuration: FORTY_EIGHT_SP_KEY_FILE: ${dir}/none.key does not exist`);

    const open = path.join(dir, "open.key");
    writeFileSync(open, KEY);
    chmodSync(open, 0o644);
    expect(() => loadFortyEightSpSigner({ FORTY_EIGHT_SP_KEY_FILE: open })).toThrow(
      `may be read by other users (mode 0644): run chmod 600 ${open}`,
    );

    const bad = path.join(dir, "bad.key");
    writeFileSync(bad, "0xsecret-in-file", { mode: 0o600 });
    let message = "";
    try {
      loadFortyEightSpSigner({ FORTY_EIGHT_SP_KEY_FILE: bad });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      `invalid configuration: FORTY_EIGHT_SP_KEY_FILE: FORTY_EIGHT_SP_KEY_FILE ${bad} must hold 0x and 64 hex characters`,
    );
    expect(message).not.toContain("secret-in-file");
  });
});
