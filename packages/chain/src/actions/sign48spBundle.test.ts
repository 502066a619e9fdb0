import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, concat, type Hex, keccak256, recoverAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuilderEndpoint } from "../profiles.ts";
import { sign48spBundle } from "./sign48spBundle.ts";
import { submitBundle } from "./submitBundle.ts";

// Conformance with shared/reference/bsc-launchpad-and-builders.md, "Corrections and additions
// (2026-12)" > "Builders": `48spSign` = an ECDSA signature, by a 48 Soul Point member's key, over
// keccak256 of the concatenation of the bundle's transaction hashes. The vector is the one 48
// Club publishes to check a signer with (48Club/docs-gitbook-en,
// english/puissant-builder/48-soulpoint-benefits.md, "Signature Result Verification").
const VECTOR = {
  txs: [
    "0xf8ad82e69c85012a05f200830329189455d398326f99059ff775485246999027b319795580b844a9059cbb0000000000000000000000006df68f71f19081751850160118fc755bfeb036120000000000000000000000000000000000000000000000056bc75e2d631000008193a0ade014e655a2d1645efb5f37a142c2369ab96d2d962861dd353fa33fe15b76cda041b291fb742d07c0d475cb2611e9dd6010bbd052c79f99e73c7f9e3653afb6f7",
    "0xf8ec8307f58584b8c6fe72830927c094bddbcbaa9cf9603b7055aad963506ede71692f1280b8830000000300000000000000000000000000000000000000000000000087250559b9145f9000000000000000000000000000000000000000000000011f35cc4934f0b52a80bb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c55d398326f99059ff775485246999027b319795500006400000000000000000af935e000000000000000008193a0f63bed83d054bdecfb6852f980ed62f35922fe5b68296b603b290a3eff41fabea04b73872c7e68f541bc97eba52abf956eac4a0e198b762e1f9a872336f6748eed",
  ] as Hex[],
  privateKey: "0x48acf19375e8a27309fe5394728abc2eb6d5a0a4feb6b6c53207ca1c256a6739" as Hex,
  signer: "0xF3A611849696ec5801745496be3f7C8124C344c3",
  signature:
    "0x83e4b3a6af20e58315554b5bc38a8398cfca44a75d42973a4454378b0dc9cae63c229b52341d1ddfc4e3ad4360e518c1f1363e2d21fcba507e8e2e10e266edd201",
};

/** What a 48 Club endpoint would check: who signed keccak256(hash ‖ hash ‖ …) of `txs`. */
const recoverSpSigner = (txs: readonly Hex[], signature: Hex) => {
  // 48 Club's v is the recovery id (0 or 1); viem recovers from 27/28 as well as from 0/1.
  const v = Number.parseInt(signature.slice(130), 16);
  return recoverAddress({
    hash: keccak256(concat(txs.map((raw) => keccak256(raw)))),
    signature: `${signature.slice(0, 130)}${(v < 27 ? v + 27 : v).toString(16)}` as Hex,
  });
};

describe("48spSign (reference: Corrections and additions (2026-12) > Builders)", () => {
  it("signs 48 Club's published example exactly: r || s || recovery id, 65 bytes", async () => {
    const signature = await sign48spBundle({
      account: privateKeyToAccount(VECTOR.privateKey),
      txs: VECTOR.txs,
    });
    expect(signature).toBe(VECTOR.signature);
    expect(await recoverSpSigner(VECTOR.txs, signature)).toBe(VECTOR.signer);
  });
});

// A fake 48 Club endpoint: it recovers the member from a bundle's 48spSign over the hashes of
// the txs it was sent (refusing a signature it cannot recover), keeps what it got and who
// signed it, and answers a bundle hash.
const received: Array<{ params: Record<string, unknown>; member: Address | null }> = [];
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", async () => {
      const [params] = (JSON.parse(body) as { params: [Record<string, unknown>] }).params;
      const signature = params["48spSign"] as Hex | undefined;
      const member = signature
        ? await recoverSpSigner(params.txs as Hex[], signature).catch(() => null)
        : null;
      received.push({ params, member });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify(
          signature && !member
            ? { jsonrpc: "2.0", id: 1, error: { code: -38000, message: "invalid 48spSign" } }
            : { jsonrpc: "2.0", id: 1, result: `0x${"ab".repeat(32)}` },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const send = (builders: BuilderEndpoint[]) =>
  submitBundle({
    builders,
    txs: VECTOR.txs,
    tip: {
      account: privateKeyToAccount(generatePrivateKey()),
      value: 1n,
      nonce: 0,
      gasPrice: 100_000_000n,
      chainId: 56,
    },
    maxBlockNumber: 100n,
  });

describe("a bundle to 48 Club with a 48 Soul Point key (reference: Corrections and additions (2026-12) > Builders)", () => {
  it("carries 48spSign over its own variant's hashes, its tip included, signed by the member", async () => {
    received.length = 0;
    const member = privateKeyToAccount(generatePrivateKey());
    const { accepted } = await send([
      {
        name: "48club",
        url,
        tipAddress: "0x4848489f0b2BEdd788c696e2D79b6b69D7484848",
        maxTxs: 6,
        signer: member,
      },
    ]);
    expect(received).toHaveLength(1);
    const [{ params, member: recovered } = { params: {}, member: null }] = received;
    const txs = params.txs as Hex[];
    expect(txs).toEqual(accepted[0]?.txs);
    expect(txs).toHaveLength(3);
    const signature = params["48spSign"] as Hex;
    expect(signature).toMatch(/^0x[0-9a-f]{128}0[01]$/);
    expect(recovered).toBe(member.address);
    // Over the hashes of exactly these transactions: without the tip it is another signer.
    expect(await recoverSpSigner(txs.slice(0, 2), signature)).not.toBe(member.address);
  });

  it("carries no 48spSign to a builder without the key", async () => {
    received.length = 0;
    await send([
      {
        name: "blockrazor",
        url,
        tipAddress: "0x1266C6bE60392A8Ff346E8d5ECCd3E69dD9c5F20",
        maxTxs: 50,
      },
      { name: "48club", url, tipAddress: "0x4848489f0b2BEdd788c696e2D79b6b69D7484848", maxTxs: 5 },
    ]);
    expect(received).toHaveLength(2);
    for (const { params } of received) expect(params).not.toHaveProperty("48spSign");
  });
});
