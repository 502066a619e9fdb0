import { createServer, type Server } from "node:net";
import { startCountingProxy } from "@bundler/chain";
import type { PreflightCheck } from "@bundler/shared";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { isReady, preflightTarget } from "./preflight.service.ts";
import { chainChecks, type PreflightTarget } from "./preflight-checks.ts";

// The preflight against the real local chain: everything passes, and each broken setup fails
// with its own sentence and what to do about it.
let testChain: TestChain;
let target: PreflightTarget;
let silent: Server;
let silentUrl: string;

beforeAll(async () => {
  testChain = await startTestChain(Buffer.alloc(32, 41));
  target = preflightTarget(testChain.chain);
  // A builder that takes the connection and never answers.
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  silentUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  silent?.close();
  await testChain?.stop();
});

const find = (checks: PreflightCheck[], area: PreflightCheck["area"], name: string) =>
  checks.find((c) => c.area === area && c.name === name);

describe("the preflight's chain checks", () => {
  it("pass on the local chain, printing the launch fee", async () => {
    const checks = await chainChecks(target);
    expect(checks.filter((c) => c.status === "failed")).toEqual([]);
    expect(isReady(checks)).toBe(true);
    expect(find(checks, "Contracts", "launch fee and trading fee")?.detail).toMatch(
      /^launch fee \d+(\.\d+)? BNB, trading fee \d+\.\d\d%$/,
    );
    expect(find(checks, "four.meme API", "raise config")?.status).toBe("skipped");
  });

  it("fail on an RPC of another chain than CHAIN names", async () => {
    const checks = await chainChecks({ ...target, chain: "bsc", chainId: 56 });
    expect(find(checks, "RPC", "chain id")).toMatchObject({
      status: "failed",
      essential: true,
      detail: "the RPC is on chain 31337, but CHAIN=bsc expects chain 56",
    });
    expect(isReady(checks)).toBe(false);
  });

  it("fail on an RPC that does not answer eth_simulateV1, naming the node version that has it", async () => {
    const proxy = await startCountingProxy(testChain.chain.rpcUrl);
    proxy.refuse((call) =>
      call.method === "eth_simulateV1" ? "the method eth_simulateV1 does not exist" : null,
    );
    try {
      const check = find(
        await chainChecks({ ...target, rpcUrl: proxy.url }),
        "RPC",
        "eth_simulateV1",
      );
      expect(check).toMatchObject({ status: "failed", essential: true });
      expect(check?.detail).toContain("the method eth_simulateV1 does not exist");
      expect(check?.fix).toContain("v1.6.3 or later");
    } finally {
      await proxy.close();
    }
  });

  it("fail on a launchpad address with no code", async () => {
    const nobody = privateKeyToAccount(`0x${"7".repeat(64)}`).address;
    const checks = await chainChecks({ ...target, launchpad: nobody });
    expect(find(checks, "Contracts", "TokenManager2 code")).toMatchObject({
      status: "failed",
      detail: `TokenManager2 has no code at ${nobody} on this chain`,
    });
    expect(find(checks, "Contracts", "launch fee and trading fee")?.status).toBe("failed");
  });

  it("warn about a builder that does not answer within 2 s, and fail when none answers", async () => {
    const quiet = {
      name: "quiet",
      url: silentUrl,
      tipAddress: target.builders[0]?.tipAddress,
      maxTxs: 5,
    };
    const some = await chainChecks({
      ...target,
      builders: [...target.builders, quiet as (typeof target.builders)[number]],
    });
    expect(find(some, "Builders", "quiet")).toMatchObject({
      status: "warning",
      detail: "quiet did not answer (no answer within 2 s)",
    });
    expect(find(some, "Builders", "at least one")?.status).toBe("ok");
    const none = await chainChecks({
      ...target,
      builders: [quiet as (typeof target.builders)[number]],
    });
    expect(find(none, "Builders", "at least one")).toMatchObject({
      status: "failed",
      essential: true,
      detail: "no builder answered: no bundle can be sent",
    });
  });

  it("stop at an RPC that does not answer, saying so", async () => {
    const checks = await chainChecks({ ...target, rpcUrl: silentUrl });
    expect(find(checks, "RPC", "reachable")).toMatchObject({ status: "failed" });
    expect(find(checks, "RPC", "reachable")?.detail).toMatch(/^the RPC did not answer eth_chainId/);
    expect(checks.filter((c) => c.status === "failed")).toHaveLength(1);
  }, 20_000);
});
