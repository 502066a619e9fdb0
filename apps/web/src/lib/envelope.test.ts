import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPublicKey,
  publicEncrypt,
  randomBytes,
} from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  base64ToBytes,
  bytesToBase64,
  createEnvelopeKeyPair,
  openEnvelope,
  sealAccessKeyPayload,
} from "./envelope.ts";

/** What the server does, written independently with the same WebCrypto primitives. */
async function seal(publicKeyBase64: string, payload: unknown): Promise<string> {
  const publicKey = await crypto.subtle.importKey(
    "spki",
    base64ToBytes(publicKeyBase64),
    { name: "RSA-OAEP", hash: "SHA-256" },
    false,
    ["encrypt"],
  );
  const rawKey = crypto.getRandomValues(new Uint8Array(32));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const aesKey = await crypto.subtle.importKey("raw", rawKey, "AES-GCM", false, ["encrypt"]);
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    aesKey,
    new TextEncoder().encode(JSON.stringify(payload)),
  );
  const wrapped = await crypto.subtle.encrypt({ name: "RSA-OAEP" }, publicKey, rawKey);
  const envelope = {
    encryptedKey: bytesToBase64(new Uint8Array(wrapped)),
    iv: bytesToBase64(iv),
    encryptedData: bytesToBase64(new Uint8Array(data)),
  };
  return Buffer.from(JSON.stringify(envelope)).toString("base64");
}

const wallets = [
  { address: "0x0000000000000000000000000000000000000001", privateKey: `0x${"11".repeat(32)}` },
  { address: "0x0000000000000000000000000000000000000002", privateKey: `0x${"22".repeat(32)}` },
];

describe("wallet envelope", () => {
  it("round-trips the server's envelope to the wallet list", async () => {
    const pair = await createEnvelopeKeyPair();
    const sealed = await seal(pair.publicKeyBase64, wallets);
    await expect(openEnvelope(pair.privateKey, sealed)).resolves.toEqual(wallets);
  });

  it("opens an envelope sealed with node:crypto (as the server does)", async () => {
    const pair = await createEnvelopeKeyPair();
    const publicKey = createPublicKey({
      key: Buffer.from(pair.publicKeyBase64, "base64"),
      format: "der",
      type: "spki",
    });
    const aesKey = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", aesKey, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(wallets)), cipher.final()]);
    const envelope = {
      encryptedKey: publicEncrypt(
        { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
        aesKey,
      ).toString("base64"),
      iv: iv.toString("base64"),
      encryptedData: Buffer.concat([data, cipher.getAuthTag()]).toString("base64"),
    };
    const sealed = Buffer.from(JSON.stringify(envelope)).toString("base64");
    await expect(openEnvelope(pair.privateKey, sealed)).resolves.toEqual(wallets);
  });

  it("exports a 2048-bit SPKI key as base64", async () => {
    const pair = await createEnvelopeKeyPair();
    // 2048-bit RSA SPKI DER is 294 bytes.
    expect(base64ToBytes(pair.publicKeyBase64)).toHaveLength(294);
  });

  it("refuses an envelope sealed for another key", async () => {
    const [mine, theirs] = await Promise.all([createEnvelopeKeyPair(), createEnvelopeKeyPair()]);
    const sealed = await seal(theirs.publicKeyBase64, wallets);
    await expect(openEnvelope(mine.privateKey, sealed)).rejects.toThrow();
  });

  it("refuses tampered ciphertext", async () => {
    const pair = await createEnvelopeKeyPair();
    const envelope = JSON.parse(
      Buffer.from(await seal(pair.publicKeyBase64, wallets), "base64").toString(),
    );
    const data = base64ToBytes(envelope.encryptedData);
    data[0] = (data[0] ?? 0) ^ 1;
    envelope.encryptedData = bytesToBase64(data);
    const tampered = Buffer.from(JSON.stringify(envelope)).toString("base64");
    await expect(openEnvelope(pair.privateKey, tampered)).rejects.toThrow();
  });
});

describe("the access-key payload of POST /api/bundle/execute", () => {
  /** The server's reading (README: iv ‖ ciphertext ‖ tag under SHA-256 of the key), with node:crypto. */
  const open = (accessKey: string, data: string) => {
    const bytes = Buffer.from(data, "base64");
    const key = createHash("sha256").update(accessKey, "utf8").digest();
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([
      decipher.update(bytes.subarray(12, bytes.length - 16)),
      decipher.final(),
    ]).toString("utf8");
  };

  it("seals what the server opens with the same key, under a fresh IV each time", async () => {
    const plaintext = JSON.stringify({ draftId: "3f0b7c1e-8a51-4c9d-9a57-6f1c2b3d4e5f" });
    const first = await sealAccessKeyPayload("lbk_key", plaintext);
    const second = await sealAccessKeyPayload("lbk_key", plaintext);
    expect(open("lbk_key", first)).toBe(plaintext);
    expect(second).not.toBe(first);
    expect(() => open("lbk_other", first)).toThrow();
  });
});
