/**
 * The wallet-generation envelope: the browser makes an RSA-OAEP (SHA-256) 2048-bit key pair and
 * sends the SPKI public key; the server answers base64(JSON {encryptedKey, iv, encryptedData}) where
 * encryptedKey is the RSA-wrapped raw AES key and encryptedData is AES-GCM ciphertext‖tag.
 */

const RSA_PARAMS: RsaHashedKeyGenParams = {
  name: "RSA-OAEP",
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: "SHA-256",
};

export interface EnvelopeKeyPair {
  privateKey: CryptoKey;
  /** SPKI, base64: what the server encrypts to. */
  publicKeyBase64: string;
}

export interface Envelope {
  encryptedKey: string;
  iv: string;
  encryptedData: string;
}

export const bytesToBase64 = (bytes: Uint8Array): string => {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

export const base64ToBytes = (base64: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));

export async function createEnvelopeKeyPair(): Promise<EnvelopeKeyPair> {
  const pair = await crypto.subtle.generateKey(RSA_PARAMS, false, ["encrypt", "decrypt"]);
  const spki = await crypto.subtle.exportKey("spki", pair.publicKey);
  return { privateKey: pair.privateKey, publicKeyBase64: bytesToBase64(new Uint8Array(spki)) };
}

function parseEnvelope(base64: string): Envelope {
  const parsed: unknown = JSON.parse(new TextDecoder().decode(base64ToBytes(base64)));
  const { encryptedKey, iv, encryptedData } = (parsed ?? {}) as Partial<Envelope>;
  if (
    typeof encryptedKey !== "string" ||
    typeof iv !== "string" ||
    typeof encryptedData !== "string"
  )
    throw new Error("Malformed envelope");
  return { encryptedKey, iv, encryptedData };
}

/** Opens an envelope with the pair's private key and parses the JSON inside. Throws on any tampering. */
export async function openEnvelope(privateKey: CryptoKey, base64: string): Promise<unknown> {
  const envelope = parseEnvelope(base64);
  const rawKey = await crypto.subtle.decrypt(
    { name: "RSA-OAEP" },
    privateKey,
    base64ToBytes(envelope.encryptedKey),
  );
  const aesKey = await crypto.subtle.importKey("raw", rawKey, "AES-GCM", false, ["decrypt"]);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: base64ToBytes(envelope.iv) },
    aesKey,
    base64ToBytes(envelope.encryptedData),
  );
  return JSON.parse(new TextDecoder().decode(plain));
}

/**
 * A payload for `POST /api/bundle/execute`: base64 of `iv (12 bytes) ‖ AES-256-GCM ciphertext ‖
 * tag`, under SHA-256 of the UTF-8 access key, no associated data (the server's
 * `openAccessKeyPayload`).
 */
export async function sealAccessKeyPayload(accessKey: string, plaintext: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(accessKey));
  const key = await crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    key,
    new TextEncoder().encode(plaintext),
  );
  const bytes = new Uint8Array(iv.length + sealed.byteLength);
  bytes.set(iv);
  bytes.set(new Uint8Array(sealed), iv.length);
  return bytesToBase64(bytes);
}
