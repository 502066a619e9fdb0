import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Hex, parseGwei } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BundleRejectedError } from "../errors.ts";
import type { BuilderEndpoint } from "../profiles.ts";
import { type BuilderAnswer, submitBundle } from "./submitBundle.ts";

// A builder as BSC's keyed endpoints are: it takes a bundle and answers its hash; what it was
// sent (headers and all) is kept for the test.
const seen: Array<{ headers: IncomingHttpHeaders; body: unknown }> = [];
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      seen.push({ headers: request.headers, body: JSON.parse(body) });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: `0x${"ab".repeat(32)}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const builder = (name: string, extra: Partial<BuilderEndpoint> = {}): BuilderEndpoint => ({
  name,
  url,
  tipAddress: "0x000000000000000000000000000000000000bEEF",
  maxTxs: 50,
  ...extra,
});
const send = (builders: BuilderEndpoint[], gasPrice: bigint) =>
  submitBundle({
    builders,
    txs: ["0x01" as Hex],
    tip: {
      account: privateKeyToAccount(generatePrivateKey()),
      value: 1n,
      nonce: 0,
      gasPrice,
      chainId: 56,
    },
    maxBlockNumber: 100n,
  });

describe("a bundle sent to configured builders", () => {
  it("carries a keyed builder's Authorization header, and no other builder's", async () => {
    seen.length = 0;
    const { accepted } = await send(
      [builder("blockrazor", { authorization: "Bearer secret-1" }), builder("48club")],
      parseGwei("0.1"),
    );
    expect(accepted.map((a) => a.builder).sort()).toEqual(["48club", "blockrazor"]);
    expect(seen.map((s) => s.headers.authorization ?? null).sort()).toEqual([
      "Bearer secret-1",
      null,
    ]);
  });

  it("goes only to builders whose gas price floor its price meets, saying why not to the others", async () => {
    seen.length = 0;
    const { accepted, rejected } = await send(
      [builder("nodereal", { minGasPrice: parseGwei("0.1") }), builder("blockrazor")],
      parseGwei("0.05"),
    );
    expect(accepted.map((a) => a.builder)).toEqual(["blockrazor"]);
    expect(seen).toHaveLength(1);
    expect(rejected.map((r) => [r.builder, r.reason])).toEqual([
      ["nodereal", "the bundle's gas price of 0.05 gwei is under its floor of 0.1 gwei"],
    ]);
  });

  it("is refused whole when no builder's floor is met", async () => {
    seen.length = 0;
    await expect(
      send([builder("nodereal", { minGasPrice: parseGwei("0.1") })], parseGwei("0.05")),
    ).rejects.toBeInstanceOf(BundleRejectedError);
    expect(seen).toHaveLength(0);
  });

  it("reports every builder's answer with its tip hash and timing, refused whole or not", async () => {
    const reported: BuilderAnswer[][] = [];
    const unreachable = builder("gone", { url: "http://127.0.0.1:1" });
    const before = Date.now();
    const { answers } = await submitBundle({
      builders: [builder("blockrazor"), builder("small", { maxTxs: 1 }), unreachable],
      txs: ["0x01" as Hex],
      tip: {
        account: privateKeyToAccount(generatePrivateKey()),
        value: 1n,
        nonce: 0,
        gasPrice: parseGwei("0.1"),
        chainId: 56,
      },
      maxBlockNumber: 100n,
      onAnswers: (a) => reported.push(a),
    });
    expect(reported).toEqual([answers]);
    expect(answers.map((a) => [a.builder, a.answer])).toEqual([
      ["blockrazor", "accepted"],
      ["small", "skipped"],
      ["gone", "silent"],
    ]);
    expect(answers.map((a) => a.reason?.replace(/\(.*\)$/, "(…)") ?? null)).toEqual([
      null,
      "2 transactions exceed its cap of 1",
      "unreachable (…)",
    ]);
    for (const a of answers) {
      expect(a.tipHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(a.sentAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(a.ms).toBeGreaterThanOrEqual(0);
    }

    reported.length = 0;
    await expect(
      submitBundle({
        builders: [unreachable],
        txs: ["0x01" as Hex],
        tip: {
          account: privateKeyToAccount(generatePrivateKey()),
          value: 1n,
          nonce: 0,
          gasPrice: parseGwei("0.1"),
          chainId: 56,
        },
        maxBlockNumber: 100n,
        onAnswers: (a) => reported.push(a),
      }),
    ).rejects.toBeInstanceOf(BundleRejectedError);
    expect(reported.map((r) => r.map((a) => a.answer))).toEqual([["silent"]]);
  });
});
