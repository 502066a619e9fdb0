import { describe, expect, it, vi } from "vitest";
import {
  createKeyStore,
  type KeyStoreDeps,
  type KvBackend,
  randomUuid,
  STORE_KEYS,
} from "./key-store.ts";

function memoryBackend(): KvBackend & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: async (name) => data.get(name),
    set: async (name, value) => {
      data.set(name, value);
    },
    del: async (name) => {
      data.delete(name);
    },
  };
}

function setup(overrides: Partial<KeyStoreDeps> = {}) {
  const secure = memoryBackend();
  const fallback = memoryBackend();
  const deps: KeyStoreDeps = {
    openSecure: async () => secure,
    fallback,
    subtle: globalThis.crypto.subtle,
    randomId: randomUuid,
    onInsecure: vi.fn(),
    ...overrides,
  };
  return { store: createKeyStore(deps), secure, fallback, deps };
}

const session = {
  key: "lbk_plaintext-access-key",
  role: "admin",
  lastValidatedAt: 1_700_000_000_000,
} as const;

describe("key store", () => {
  it("returns what was saved", async () => {
    const { store } = setup();
    await store.save(session);
    await expect(store.load()).resolves.toEqual(session);
  });

  it("returns an empty record when nothing was saved", async () => {
    const { store } = setup();
    await expect(store.load()).resolves.toEqual({ key: null, role: null, lastValidatedAt: null });
  });

  it("stores the key encrypted rather than as plaintext", async () => {
    const { store, secure } = setup();
    await store.save(session);
    const record = secure.data.get(STORE_KEYS.authKey) as { iv: Uint8Array; data: ArrayBuffer };
    expect(record).not.toBe(session.key);
    expect(record.iv).toHaveLength(12);
    const bytes = new TextDecoder("latin1").decode(record.data);
    expect(bytes).not.toContain(session.key);
  });

  it("uses a fresh iv for every save", async () => {
    const { store, secure } = setup();
    await store.save(session);
    const first = secure.data.get(STORE_KEYS.authKey) as { iv: Uint8Array };
    await store.save(session);
    const second = secure.data.get(STORE_KEYS.authKey) as { iv: Uint8Array };
    expect(Array.from(second.iv)).not.toEqual(Array.from(first.iv));
  });

  it("keeps a non-extractable AES-GCM key beside the data", async () => {
    const { store, secure } = setup();
    await store.save(session);
    const cryptoKey = secure.data.get(STORE_KEYS.cipherKey) as CryptoKey;
    expect(cryptoKey.extractable).toBe(false);
    expect(cryptoKey.algorithm.name).toBe("AES-GCM");
    await expect(globalThis.crypto.subtle.exportKey("raw", cryptoKey)).rejects.toThrow();
  });

  it("reads a key saved by an earlier page load with the same storage", async () => {
    const { store, deps } = setup();
    await store.save(session);
    const reloaded = createKeyStore(deps);
    await expect(reloaded.load()).resolves.toEqual(session);
  });

  it("treats a record it cannot decrypt as no key", async () => {
    const { store, secure, deps } = setup();
    await store.save(session);
    secure.data.delete(STORE_KEYS.cipherKey);
    const reloaded = createKeyStore(deps);
    await expect(reloaded.load()).resolves.toMatchObject({ key: null });
  });

  it("ignores a stored role that is not a known role", async () => {
    const { store, secure } = setup();
    await store.save(session);
    secure.data.set(STORE_KEYS.role, "root");
    await expect(store.load()).resolves.toMatchObject({ role: null });
  });

  it("clears key, role and last-validated time but keeps the device id", async () => {
    const { store } = setup();
    const deviceId = await store.deviceId();
    await store.save(session);
    await store.clear();
    await expect(store.load()).resolves.toEqual({ key: null, role: null, lastValidatedAt: null });
    await expect(store.deviceId()).resolves.toBe(deviceId);
  });

  it("generates the device id once and keeps it", async () => {
    const { store, deps } = setup();
    const first = await store.deviceId();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await expect(store.deviceId()).resolves.toBe(first);
    await expect(createKeyStore(deps).deviceId()).resolves.toBe(first);
  });

  it("falls back to plain storage and reports it once when the secure store cannot open", async () => {
    const { store, fallback, deps } = setup({
      openSecure: async () => {
        throw new Error("IndexedDB blocked");
      },
    });
    await store.save(session);
    await store.load();
    await store.deviceId();
    expect(fallback.data.get(STORE_KEYS.authKey)).toBe(session.key);
    await expect(store.mode()).resolves.toBe("plain");
    expect(deps.onInsecure).toHaveBeenCalledTimes(1);
  });

  it("falls back to plain storage when WebCrypto is missing", async () => {
    const { store, deps } = setup({ subtle: undefined });
    await store.save(session);
    await expect(store.load()).resolves.toEqual(session);
    await expect(store.mode()).resolves.toBe("plain");
    expect(deps.onInsecure).toHaveBeenCalledTimes(1);
  });

  it("does not report anything when the secure store opens", async () => {
    const { store, deps } = setup();
    await store.load();
    await expect(store.mode()).resolves.toBe("secure");
    expect(deps.onInsecure).not.toHaveBeenCalled();
  });
});
