import { ROLES, type Role } from "@bundler/shared";

/** Async key/value storage. IndexedDB in the browser (can hold a CryptoKey), a Map in tests. */
export interface KvBackend {
  get(name: string): Promise<unknown>;
  set(name: string, value: unknown): Promise<void>;
  del(name: string): Promise<void>;
}

export interface KeyStoreDeps {
  /** Opens the structured-clone store; rejects when it is unavailable (private mode, disabled). */
  openSecure: () => Promise<KvBackend>;
  /** Plain storage used when the secure one or WebCrypto is unavailable. */
  fallback: KvBackend;
  subtle: SubtleCrypto | undefined;
  randomId: () => string;
  /** Called once when the store falls back to plain storage. */
  onInsecure: (cause: unknown) => void;
}

export interface StoredAuth {
  key: string | null;
  role: Role | null;
  lastValidatedAt: number | null;
}

export interface Session {
  key: string;
  role: Role;
  lastValidatedAt: number;
}

export interface KeyStore {
  load(): Promise<StoredAuth>;
  save(session: Session): Promise<void>;
  /** Forgets key, role and last-validated time; the device id stays. */
  clear(): Promise<void>;
  deviceId(): Promise<string>;
  /** "secure" once opened with IndexedDB + WebCrypto, "plain" after the fallback. */
  mode(): Promise<"secure" | "plain">;
}

export const STORE_KEYS = {
  cipherKey: "cipher-key",
  authKey: "auth-key",
  role: "role",
  lastValidatedAt: "last-validated-at",
  deviceId: "device-id",
} as const;

interface Cipher {
  encrypt(plain: string): Promise<EncryptedValue>;
  decrypt(value: EncryptedValue): Promise<string>;
}

interface EncryptedValue {
  iv: Uint8Array;
  data: ArrayBuffer;
}

const isEncryptedValue = (value: unknown): value is EncryptedValue =>
  typeof value === "object" &&
  value !== null &&
  (value as EncryptedValue).iv instanceof Uint8Array &&
  (value as EncryptedValue).data instanceof ArrayBuffer;

const isCryptoKey = (value: unknown): value is CryptoKey =>
  typeof value === "object" && value !== null && "algorithm" in value && "usages" in value;

async function loadCipher(kv: KvBackend, subtle: SubtleCrypto): Promise<Cipher> {
  let key = await kv.get(STORE_KEYS.cipherKey);
  if (!isCryptoKey(key)) {
    // Non-extractable: script can use it but never read its bytes, not even ours.
    key = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    await kv.set(STORE_KEYS.cipherKey, key);
  }
  const cryptoKey = key as CryptoKey;
  return {
    async encrypt(plain) {
      const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
      const data = await subtle.encrypt(
        { name: "AES-GCM", iv },
        cryptoKey,
        new TextEncoder().encode(plain),
      );
      return { iv, data };
    },
    async decrypt({ iv, data }) {
      const plain = await subtle.decrypt(
        { name: "AES-GCM", iv: new Uint8Array(iv) },
        cryptoKey,
        data,
      );
      return new TextDecoder().decode(plain);
    },
  };
}

const parseRole = (value: unknown): Role | null => ROLES.find((role) => role === value) ?? null;

const parseTimestamp = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

export function createKeyStore(deps: KeyStoreDeps): KeyStore {
  let opened: Promise<{ kv: KvBackend; cipher: Cipher | null }> | undefined;

  const open = () => {
    opened ??= (async () => {
      try {
        if (!deps.subtle) throw new Error("WebCrypto is unavailable");
        const kv = await deps.openSecure();
        return { kv, cipher: await loadCipher(kv, deps.subtle) };
      } catch (cause) {
        deps.onInsecure(cause);
        return { kv: deps.fallback, cipher: null };
      }
    })();
    return opened;
  };

  async function readKey(kv: KvBackend, cipher: Cipher | null): Promise<string | null> {
    const raw = await kv.get(STORE_KEYS.authKey);
    if (!cipher) return typeof raw === "string" && raw !== "" ? raw : null;
    if (!isEncryptedValue(raw)) return null;
    // A record we cannot decrypt (cipher key lost or replaced) is as good as no key.
    return cipher.decrypt(raw).catch(() => null);
  }

  return {
    async load() {
      const { kv, cipher } = await open();
      const [key, role, lastValidatedAt] = await Promise.all([
        readKey(kv, cipher),
        kv.get(STORE_KEYS.role),
        kv.get(STORE_KEYS.lastValidatedAt),
      ]);
      return { key, role: parseRole(role), lastValidatedAt: parseTimestamp(lastValidatedAt) };
    },
    async save({ key, role, lastValidatedAt }) {
      const { kv, cipher } = await open();
      await kv.set(STORE_KEYS.authKey, cipher ? await cipher.encrypt(key) : key);
      await kv.set(STORE_KEYS.role, role);
      await kv.set(STORE_KEYS.lastValidatedAt, lastValidatedAt);
    },
    async clear() {
      const { kv } = await open();
      await Promise.all([
        kv.del(STORE_KEYS.authKey),
        kv.del(STORE_KEYS.role),
        kv.del(STORE_KEYS.lastValidatedAt),
      ]);
    },
    async deviceId() {
      const { kv } = await open();
      const existing = await kv.get(STORE_KEYS.deviceId);
      if (typeof existing === "string" && existing !== "") return existing;
      const id = deps.randomId();
      await kv.set(STORE_KEYS.deviceId, id);
      return id;
    },
    async mode() {
      return (await open()).cipher ? "secure" : "plain";
    },
  };
}

/** A v4 UUID; crypto.randomUUID only exists in secure contexts, getRandomValues everywhere. */
export function randomUuid(): string {
  if (typeof globalThis.crypto.randomUUID === "function") return globalThis.crypto.randomUUID();
  const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
