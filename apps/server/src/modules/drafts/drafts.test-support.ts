import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";

export const wallet = () => {
  const privateKey = generatePrivateKey();
  return { address: privateKeyToAccount(privateKey).address, privateKey };
};

export const draftInput = () => ({
  tokenInfo: {
    name: "Moon",
    symbol: "MOON",
    description: "to the moon",
    image: "data:image/png;base64,AAAA",
  },
  deployerWallet: wallet(),
  walletConfig: {
    wallets: [
      { ...wallet(), buyValue: "0.01" },
      { ...wallet(), buyValue: "0.02" },
    ],
    tip: "0.001",
    tipPayer: wallet(),
  },
});

/**
 * An app without a chain for one test file (started before its tests, closed after), two
 * users' keys, and `call` to its API as one of them. `app`, `keyA` and `keyB` are getters:
 * read them inside a test.
 */
export const useDraftsTestbed = () => {
  let app: TestApp;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    app = await createTestApp({ bodyLimitBytes: 2 * 1024 * 1024 });
    keyA = await app.auth.mintKey("user");
    keyB = await app.auth.mintKey("user");
  });
  afterAll(async () => {
    await app.close();
  });

  const call = async (
    key: string,
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    payload?: unknown,
  ) => {
    const response = await app.server.inject({
      method,
      url,
      headers: { "x-auth-key": key },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };

  return {
    get app() {
      return app;
    },
    get keyA() {
      return keyA;
    },
    get keyB() {
      return keyB;
    },
    call,
  };
};
