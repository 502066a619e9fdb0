import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";
import { burst, healthAnswersIn } from "../test/burst.ts";
import { startTestChain, type TestChain } from "../test/chain.ts";

let testChain: TestChain;
let app: TestApp;
let origin: string;
let key: string;
const masterKey = Buffer.alloc(32, 7);

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({ chain: testChain.chain, masterKey, rateLimitPerMinute: 10_000_000 });
  await app.server.listen({ host: "127.0.0.1", port: 0 });
  origin = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  key = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

describe("reads after a burst", () => {
  it("answers /api/health within a second after 100 clients polled transaction statuses for 5 s and stopped at once", async () => {
    await burst({
      origin,
      path: "/api/bundle/tx/status",
      method: "POST",
      key,
      json: { txHashes: [`0x${"ab".repeat(32)}`] },
      connections: 100,
      seconds: 5,
    });
    expect(await healthAnswersIn(origin, 5_000)).toBeLessThan(1_000);
  });
});
