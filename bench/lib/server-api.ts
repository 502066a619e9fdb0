// What the benchmarks that drive the real server through its API share: its HTTP API with a
// key, a wallet with its key (as a draft stores it), and a logo small enough for any draft.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { RunningServer } from "./server.ts";

/** One call of the server's API with `key`; throws on any answer but 2xx. */
export const api = async <T>(
  server: RunningServer,
  key: string,
  method: "GET" | "POST",
  route: string,
  body?: unknown,
): Promise<T> => {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: {
      "x-auth-key": key,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
};

/** A fresh wallet with its private key, as a draft's wallets are saved. */
export const keyedWallet = () => {
  const privateKey = generatePrivateKey();
  return { address: privateKeyToAccount(privateKey).address, privateKey };
};

/** A 1×1 PNG, as the e2e tests use. */
export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
