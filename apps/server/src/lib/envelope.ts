import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPublicKey,
  publicEncrypt,
  randomBytes,
} from "node:crypto";

/**
 * The wallet-generation envelope the browser opens with WebCrypto.
 *
 *   aesKey        = 32 random bytes (AES-256-GCM key), fresh per response
 *   iv            = 12 random bytes
 *   encryptedKey  = base64( RSA-OAEP(SHA-256, MGF1-SHA-256, no label)(spki publicKey, aesKey) )
 *   encryptedData = base64( AES-256-GCM(aesKey, iv, no AAD)(utf8 JSON) ‖ tag[16] )
 *   envelope      = base64( utf8 JSON {"encryptedKey", "iv": base64(iv), "encryptedData"} )
 *
 * ciphertext‖tag is exactly what WebCrypto's AES-GCM `encrypt` outputs and `decrypt` expects
 * (tagLength 128), so the browser does: importKey("spki"... RSA-OAEP SHA-256) on its side,
 * decrypt(RSA-OAEP, privateKey, encryptedKey) → raw AES key → decrypt({name:"AES-GCM", iv}, ...).
 */
export const sealForBrowser = (publicKeySpkiBase64: string, plaintext: string): string => {
  const publicKey = createPublicKey({
    key: Buffer.from(publicKeySpkiBase64, "base64"),
    format: "der",
    type: "spki",
  });
  const aesKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", aesKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const encryptedKey = publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
    aesKey,
  );
  const envelope = {
    encryptedKey: encryptedKey.toString("base64"),
    iv: iv.toString("base64"),
    encryptedData: Buffer.concat([ciphertext, cipher.getAuthTag()]).toString("base64"),
  };
  return Buffer.from(JSON.stringify(envelope), "utf8").toString("base64");
};

/**
 * `POST /api/bundle/execute` payload:
 *   key  = SHA-256(utf8 access key)              (32 bytes, AES-256-GCM key)
 *   data = base64( iv[12] ‖ ciphertext ‖ tag[16] ), plaintext = utf8 JSON {draftId, ...}
 * WebCrypto: encrypt({name:"AES-GCM", iv}, key, json) already yields ciphertext‖tag.
 */
export const openAccessKeyPayload = (accessKey: string, data: string): string => {
  const bytes = Buffer.from(data, "base64");
  if (bytes.length < 12 + 16 + 1) throw new Error("payload too short");
  const key = createHash("sha256").update(accessKey, "utf8").digest();
  const iv = bytes.subarray(0, 12);
  const tag = bytes.subarray(bytes.length - 16);
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([
    decipher.update(bytes.subarray(12, bytes.length - 16)),
    decipher.final(),
  ]).toString("utf8");
};

/** The inverse of `openAccessKeyPayload` (tests; the browser does the same with WebCrypto). */
export const sealAccessKeyPayload = (accessKey: string, plaintext: string): string => {
  const key = createHash("sha256").update(accessKey, "utf8").digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString("base64");
};
