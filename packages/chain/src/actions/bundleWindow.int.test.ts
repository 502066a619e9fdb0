import { createPublicClient, http, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFreePort } from "../dev/getFreePort.ts";
import { type StartAnvilReturnType, startAnvil } from "../dev/startAnvil.ts";
import { measureBlockSeconds, windowBlocks } from "./bundleWindow.ts";

// A chain whose blocks come every 0.45 s, as BSC's do, its header timestamps in whole seconds:
// each block is mined by hand with the timestamp BSC would give it.
let anvil: StartAnvilReturnType;
let client: PublicClient;
beforeAll(async () => {
  anvil = await startAnvil({
    port: await getFreePort(),
    chainId: 31337,
    blockTime: null,
    stateFile: null,
  });
  client = createPublicClient({ transport: http(anvil.rpcUrl) }) as PublicClient;
});
afterAll(() => anvil?.stop());

const mineAt = (timestamp: number) =>
  fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [timestamp] }),
  });

describe("the block time measured from recent blocks", () => {
  it("is 0.45 s within 5% on a chain of 0.45 s blocks with whole-second timestamps, and 6 s span 14 blocks", async () => {
    const start = Number((await client.getBlock()).timestamp) + 1;
    for (let i = 1; i <= 60; i++) await mineAt(start + Math.floor(i * 0.45));
    const seconds = await measureBlockSeconds(client);
    expect(seconds).not.toBeNull();
    expect(Math.abs((seconds as number) - 0.45)).toBeLessThan(0.45 * 0.05);
    expect(windowBlocks(6, seconds)).toBe(14n);
  });
});
