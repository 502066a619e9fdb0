import { randomBytes } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { openAccessKeyPayload, sealAccessKeyPayload } from "./envelope.ts";
import { KeyVault } from "./key-vault.ts";

const vault = (key = randomBytes(32), id = "mk1", older: Record<string, Buffer> = {}) =>
  new KeyVault({} as Db, key, id, older);

describe("KeyVault", () => {
  it("round-trips a key with a fresh IV each time", () => {
    const v = vault();
    const privateKey = generatePrivateKey();
    const { address } = privateKeyToAccount(privateKey);
    const a = v.seal(address, "bundle", privateKey);
    const b = v.seal(address, "bundle", privateKey);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toContain(privateKey.slice(2));
    expect(v.open(address, "bundle", a)).toBe(privateKey);
  });

  it("refuses a ciphertext moved to another address or purpose, or under the wrong master key", () => {
    const v = vault();
    const privateKey = generatePrivateKey();
    const { address } = privateKeyToAccount(privateKey);
    const sealed = v.seal(address, "deployer", privateKey);
    expect(() => v.open(address, "payment", sealed)).toThrow();
    expect(() =>
      v.open(privateKeyToAccount(generatePrivateKey()).address, "deployer", sealed),
    ).toThrow();
    expect(() => vault().open(address, "deployer", sealed)).toThrow();
  });

  it("reads records of a rotated-out master key by its id", () => {
    const oldKey = randomBytes(32);
    const privateKey = generatePrivateKey();
    const { address } = privateKeyToAccount(privateKey);
    const sealed = vault(oldKey, "mk1").seal(address, "tip", privateKey);
    const rotated = vault(randomBytes(32), "mk2", { mk1: oldKey });
    expect(rotated.open(address, "tip", sealed)).toBe(privateKey);
    expect(rotated.seal(address, "tip", privateKey).keyId).toBe("mk2");
  });
});

describe("access-key payload", () => {
  it("opens what was sealed with the same access key only", () => {
    const data = sealAccessKeyPayload("lb_key", JSON.stringify({ draftId: "x" }));
    expect(JSON.parse(openAccessKeyPayload("lb_key", data))).toEqual({ draftId: "x" });
    expect(() => openAccessKeyPayload("other", data)).toThrow();
  });
});
