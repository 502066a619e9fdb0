import { buildersFor, profiles } from "@bundler/chain";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remoteChainContext } from "../../lib/chain-context.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";

let app: TestApp;
beforeAll(async () => {
  // BSC's builders as a keyed, signed deployment has them; nothing here is ever asked.
  const builders = buildersFor(profiles.bsc, {
    maxTxs: { "48club": 10, blockrazor: 15 },
    urls: { blockrazor: "https://frankfurt.builder.blockrazor.io/secret-path" },
    authorization: { blockrazor: "secret-auth" },
    fortyEightSpSigner: privateKeyToAccount(`0x${"4a".repeat(32)}`),
  });
  app = await createTestApp({
    chain: remoteChainContext(profiles.bsc, "http://127.0.0.1:1", builders),
  });
});
afterAll(() => app.close());

describe("GET /api/config", () => {
  it("names each builder with its cap and whether its bundles are signed, and nothing more", async () => {
    const response = await app.server.inject({ method: "GET", url: "/api/config" });
    expect(response.json().config.builders).toEqual([
      { name: "48club", maxTxs: 10, signed: true },
      { name: "blockrazor", maxTxs: 15, signed: false },
    ]);
    expect(response.body).not.toMatch(/secret|blockrazor\.io|48\.club|4a4a/);
  });
});
