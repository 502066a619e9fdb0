import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { loadTreasury } from "./treasury-key.ts";

const DEV = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

describe("the treasury wallet", () => {
  it("is anvil's dev account 2 on the local chain by default, key included", () => {
    const treasury = loadTreasury({ chain: "local", devAddress: DEV });
    expect(treasury.address).toBe(DEV);
    expect(privateKeyToAccount(treasury.privateKey ?? "0x").address).toBe(DEV);
  });

  it("takes its address from a configured key", () => {
    const key = generatePrivateKey();
    const treasury = loadTreasury({ chain: "bsc", privateKey: key, devAddress: DEV });
    expect(treasury).toEqual({ address: privateKeyToAccount(key).address, privateKey: key });
  });

  it("reads the key from a file that only its owner may read", () => {
    const key = generatePrivateKey();
    const file = path.join(mkdtempSync(path.join(tmpdir(), "treasury-")), "key");
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    expect(loadTreasury({ chain: "bsc", keyFile: file, devAddress: DEV }).privateKey).toBe(key);
    writeFileSync(`${file}2`, key, { mode: 0o644 });
    expect(() => loadTreasury({ chain: "bsc", keyFile: `${file}2`, devAddress: DEV })).toThrow(
      /chmod 600/,
    );
  });

  it("refuses a key that is not TREASURY_ADDRESS's", () => {
    expect(() =>
      loadTreasury({
        chain: "bsc",
        privateKey: generatePrivateKey(),
        address: DEV,
        devAddress: DEV,
      }),
    ).toThrow(/not of TREASURY_ADDRESS/);
  });

  it("has no key off the local chain unless one is configured", () => {
    expect(
      loadTreasury({ chain: "bsc", address: DEV, devAddress: DEV }).privateKey,
    ).toBeUndefined();
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect(loadTreasury({ chain: "local", address: other, devAddress: DEV }).privateKey).toBe(
      undefined,
    );
  });
});
