import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getBundleStatus } from "./bundleStatus.ts";

// Fake status services answering as the reference describes them
// (bsc-launchpad-and-builders.md, "Finding out what became of a bundle"): 48 Club's
// explore API (submitted, confirmed, block, priority; an unknown hash 404) and BlockRazor's
// bundlestate (onchain / failed with err / not found).
const answers = new Map<string, { status: number; body: unknown }>();
const asked: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push({ path: request.url ?? "", headers: request.headers });
    const hash = new URL(request.url ?? "/", "http://x").searchParams.get("hash") ?? "";
    const answer = answers.get(hash) ?? { status: 404, body: { message: "not found" } };
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

describe("48 Club's bundle status (explore.48.club/v2/bundle)", () => {
  const ask = (bundleHash: Hex) =>
    getBundleStatus({ builder: "48club", bundleHash, url: `${base}/v2/bundle` });

  it("says a confirmed bundle landed, in its block", async () => {
    answers.set(hash(1), {
      status: 200,
      body: { submitted: true, confirmed: true, block: 48_000_123, priority: 5 },
    });
    expect(await ask(hash(1))).toEqual({ state: "landed", block: 48_000_123n });
    expect(asked.at(-1)?.path).toBe(`/v2/bundle?hash=${hash(1)}`);
  });

  it("says a submitted bundle not confirmed yet is pending (confirmations lag about 5 blocks)", async () => {
    answers.set(hash(2), { status: 200, body: { submitted: true, confirmed: false } });
    expect(await ask(hash(2))).toEqual({ state: "pending" });
  });

  it("says a hash it answers 404 for is unknown", async () => {
    expect(await ask(hash(3))).toEqual({ state: "unknown" });
  });

  it("throws on an HTTP error, to be asked again later", async () => {
    answers.set(hash(4), { status: 429, body: { message: "too many requests" } });
    await expect(ask(hash(4))).rejects.toThrow("48club's bundle status answered HTTP 429");
  });
});

describe("BlockRazor's bundle status (bsc-bundle-stats.blockrazor.io/bundlestate)", () => {
  const ask = (bundleHash: Hex) =>
    getBundleStatus({
      builder: "blockrazor",
      bundleHash,
      url: `${base}/bundlestate`,
      authorization: "key-1",
    });

  it("says an onchain bundle landed, sending the endpoint's key", async () => {
    answers.set(hash(11), { status: 200, body: { state: "onchain", blockNumber: "48000200" } });
    expect(await ask(hash(11))).toEqual({ state: "landed", block: 48_000_200n });
    expect(asked.at(-1)?.headers.authorization).toBe("key-1");
  });

  it("keeps a failed bundle's reason in its words", async () => {
    answers.set(hash(12), {
      status: 200,
      body: { state: "failed", err: "bundle gas price lower than 0.05 gwei" },
    });
    expect(await ask(hash(12))).toEqual({
      state: "failed",
      reason: "bundle gas price lower than 0.05 gwei",
    });
  });

  it("says a bundle it has not found is unknown", async () => {
    answers.set(hash(13), { status: 200, body: { state: "not found" } });
    expect(await ask(hash(13))).toEqual({ state: "unknown" });
  });

  it("refuses an answer in a shape it does not know instead of guessing", async () => {
    answers.set(hash(14), { status: 200, body: { result: 1 } });
    await expect(ask(hash(14))).rejects.toThrow(/a shape this app does not know/);
  });
});
