import { AUTH_REVALIDATE_MS, type Role } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-error.ts";
import { createKeyStore, type KvBackend, randomUuid } from "../../../lib/key-store.ts";
import { restoreSession } from "./restore-session.ts";

const NOW = 1_700_000_000_000;
const STALE = NOW - AUTH_REVALIDATE_MS - 60_000;

function memoryBackend(): KvBackend {
  const data = new Map<string, unknown>();
  return {
    get: async (name) => data.get(name),
    set: async (name, value) => {
      data.set(name, value);
    },
    del: async (name) => {
      data.delete(name);
    },
  };
}

/** A real key store (in memory) holding `key`, last validated at `lastValidatedAt`. */
async function storeWith(key: string, lastValidatedAt: number, role: Role = "user") {
  const store = createKeyStore({
    openSecure: async () => memoryBackend(),
    fallback: memoryBackend(),
    subtle: globalThis.crypto.subtle,
    randomId: randomUuid,
    onInsecure: () => {},
  });
  await store.save({ key, role, lastValidatedAt });
  return store;
}

/** The server's side of the call: answers a role, or throws what the api client would. */
const server = (answer: Role | ApiError) => {
  const calls: string[] = [];
  const validate = async (key: string) => {
    calls.push(key);
    if (answer instanceof ApiError) throw answer;
    return { role: answer };
  };
  return { validate, calls };
};

const restore = async (store: Awaited<ReturnType<typeof storeWith>>, answer: Role | ApiError) => {
  const { validate, calls } = server(answer);
  const result = await restoreSession({
    store,
    validate,
    save: (session) => store.save({ ...session, lastValidatedAt: NOW }),
    now: () => NOW,
  });
  return { result, calls, stored: await store.load() };
};

describe("restoreSession", () => {
  it("trusts a key validated within 24 hours without asking the server", async () => {
    const { result, calls } = await restore(await storeWith("lbk_a", NOW - 1000, "admin"), "user");
    expect(result).toEqual({ kind: "session", session: { key: "lbk_a", role: "admin" } });
    expect(calls).toEqual([]);
  });

  it("logs in with the server's role and stamps the key when an old key is still good", async () => {
    const { result, stored } = await restore(await storeWith("lbk_a", STALE), "superadmin");
    expect(result).toEqual({ kind: "session", session: { key: "lbk_a", role: "superadmin" } });
    expect(stored).toEqual({ key: "lbk_a", role: "superadmin", lastValidatedAt: NOW });
  });

  it("clears a key the server rejects and logs out", async () => {
    const { result, stored } = await restore(
      await storeWith("lbk_a", STALE),
      new ApiError(401, "Invalid access key"),
    );
    expect(result).toEqual({ kind: "anonymous" });
    expect(stored.key).toBeNull();
  });

  it("keeps the key and says the server is offline when it cannot be reached", async () => {
    const { result, stored } = await restore(await storeWith("lbk_a", STALE), new ApiError(null));
    expect(result).toEqual({
      kind: "unreachable",
      title: "Connection Error - The server is currently offline",
      hint: "Please try again later or contact support.",
    });
    expect(stored).toEqual({ key: "lbk_a", role: "user", lastValidatedAt: STALE });
  });

  it("keeps the key when the server is rate limiting", async () => {
    const { result, stored } = await restore(await storeWith("lbk_a", STALE), new ApiError(429));
    expect(result).toMatchObject({
      kind: "unreachable",
      title: "Rate Limit Reached - Too many requests at once",
    });
    expect(stored.key).toBe("lbk_a");
  });

  it("keeps the key when the server fails", async () => {
    const { result, stored } = await restore(await storeWith("lbk_a", STALE), new ApiError(503));
    expect(result).toMatchObject({
      kind: "unreachable",
      title: "Unexpected Error - Something went wrong",
    });
    expect(stored.key).toBe("lbk_a");
  });

  it("logs out without asking when nothing is stored", async () => {
    const store = await storeWith("lbk_a", NOW);
    await store.clear();
    const { result, calls } = await restore(store, "user");
    expect(result).toEqual({ kind: "anonymous" });
    expect(calls).toEqual([]);
  });
});
