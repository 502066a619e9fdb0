import { AUTH_MESSAGES } from "@bundler/shared";
import { createStore, del, get, set } from "idb-keyval";
import toast from "react-hot-toast";
import { createKeyStore, type KeyStore, type KvBackend, randomUuid } from "./key-store.ts";

const IDB_NAME = "launch-bundler";
const IDB_STORE = "auth";
const LOCAL_PREFIX = "bundler:";
/** Some browsers leave an IndexedDB open request pending forever instead of failing it. */
const OPEN_TIMEOUT_MS = 3000;

async function openIndexedDb(): Promise<KvBackend> {
  const store = createStore(IDB_NAME, IDB_STORE);
  const backend: KvBackend = {
    get: (name) => get(name, store),
    set: (name, value) => set(name, value, store),
    del: (name) => del(name, store),
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("IndexedDB did not open")), OPEN_TIMEOUT_MS);
  });
  try {
    await Promise.race([backend.get("probe"), timeout]);
  } finally {
    clearTimeout(timer);
  }
  return backend;
}

const localStorageBackend: KvBackend = {
  async get(name) {
    const raw = globalThis.localStorage.getItem(LOCAL_PREFIX + name);
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      return undefined;
    }
  },
  async set(name, value) {
    globalThis.localStorage.setItem(LOCAL_PREFIX + name, JSON.stringify(value));
  },
  async del(name) {
    globalThis.localStorage.removeItem(LOCAL_PREFIX + name);
  },
};

let instance: KeyStore | undefined;

/** The app's one key store: IndexedDB + AES-GCM, or plain localStorage when that fails. */
export function getKeyStore(): KeyStore {
  instance ??= createKeyStore({
    openSecure: openIndexedDb,
    fallback: localStorageBackend,
    subtle: globalThis.crypto?.subtle,
    randomId: randomUuid,
    onInsecure: (cause) => {
      console.warn("Secure key storage unavailable, using localStorage", cause);
      toast.error(AUTH_MESSAGES.storageInsecure, { id: "storage-insecure" });
    },
  });
  return instance;
}
