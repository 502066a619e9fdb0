import { profiles, type SeenCall, startCountingProxy } from "@bundler/chain";
import { formatEther } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { localChainContext } from "../../lib/chain-context.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { autosellKit } from "../../test/autosell.ts";
import { launchBundle } from "../../test/bundles.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { startUnreliableRpc, type UnreliableRpc } from "../../test/unreliable-rpc.ts";

/**
 * The pass's reads through a node that refuses some of them, as public BSC nodes do: the app's
 * every chain call goes through a proxy in front of the test chain, which refuses the calls a
 * test names. One token's reads failing never stops another's rule. In front of that proxy, the
 * unreliable RPC answers a test's `eth_getLogs` from a node `logsLag` blocks behind the head
 * (every other call from one up to date), as a load-balanced endpoint may.
 */
const masterKey = Buffer.alloc(32, 53);
/** The app reads the launchpad's events at most this many blocks at a time. */
const RANGE = 100;
let testChain: TestChain;
let app: TestApp;
let key: string;
/** A second user, with a bundle of their own. */
let otherKey: string;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let balanced: UnreliableRpc;
let logsLag = 0;

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  proxy = await startCountingProxy(testChain.local.builderUrl);
  balanced = await startUnreliableRpc({
    upstream: () => proxy.url,
    seed: 53,
    dropRate: 0,
    delayMs: () => 0,
    lagOf: (method) => (method === "eth_getLogs" ? logsLag : 0),
  });
  const chain = localChainContext(
    profiles.local,
    { ...testChain.local, builderUrl: balanced.url },
    50,
  );
  app = await createTestApp({ chain, masterKey, logsMaxBlockRange: RANGE });
  key = await app.auth.mintKey("user");
  otherKey = await app.auth.mintKey("user");
});
afterEach(() => {
  proxy.refuse(() => null);
  logsLag = 0;
});
afterAll(async () => {
  await app?.close();
  await balanced?.close();
  await proxy?.close();
  await testChain?.stop();
});

const { tick, outsider, arm, ruleOf, sentFiring } = autosellKit(() => ({ testChain, app, key }));

/** How many blocks an `eth_getLogs` call spans. */
const spanOf = (call: SeenCall) => {
  const { fromBlock, toBlock } = call.params[0] as { fromBlock: string; toBlock: string };
  return Number(BigInt(toBlock) - BigInt(fromBlock)) + 1;
};
const logReads = () => proxy.calls.filter((c) => c.method === "eth_getLogs");

describe("the launchpad's events, read in ranges a node accepts", () => {
  it("reads a token launched long before its first sniper guard in chunks, and counts every outside buy", async () => {
    proxy.refuse((call) =>
      call.method === "eth_getLogs" && spanOf(call) > RANGE
        ? `block range too wide: at most ${RANGE} blocks`
        : null,
    );
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const sniper = await outsider();
    await sniper.buy(bundle.token, "0.6");
    // 250 empty blocks: the token's launch is far behind the head when its guard is armed.
    await testChain.rpc("anvil_mine", ["0xfa"]);
    await sniper.buy(bundle.token, "0.6");
    proxy.reset();
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "outsideBuys", atLeastBnb: "1" }] },
      action: { percent: 50 },
    });
    const { firing } = await sentFiring(bundle.token, rule.id);
    expect(firing.reading.conditions[0]?.text).toBe(
      "outside buys 1.2000 BNB net since launch, of 1 BNB",
    );
    const spans = logReads().map(spanOf);
    expect(spans.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...spans)).toBeLessThanOrEqual(RANGE);
  });
});

describe("the launchpad's events from a node behind the head", () => {
  it("counts an outside buy in the newest blocks that a lagging node left out of its answer", async () => {
    // The head from a node up to date, the events from one 3 blocks behind: the newest blocks'
    // events come back empty until that node has them.
    logsLag = 3;
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "outsideBuys", atLeastBnb: "0.5" }] },
      action: { percent: 50 },
    });
    await tick();
    const sniper = await outsider();
    await sniper.buy(bundle.token, "0.6");
    const { firing } = await sentFiring(bundle.token, rule.id);
    expect(firing.reading.conditions[0]?.text).toBe(
      "outside buys 0.6000 BNB net since launch, of 0.5 BNB",
    );
  });
});

describe("one token's failing reads", () => {
  it("leave every other user's rule to fire, and the broken rule says why", async () => {
    proxy.refuse((call) =>
      call.method === "eth_getLogs" ? "this node does not serve event logs" : null,
    );
    const broken = await launchBundle(app, testChain, key, { wallets: 1 });
    const healthy = await launchBundle(app, testChain, otherKey, { wallets: 2 });
    const guard = await arm(broken.token, {
      trigger: { any: [{ type: "outsideBuys", atLeastBnb: "1" }] },
      action: { percent: 100 },
    });
    const cap = await app.autosellEngine?.marketCapNow(healthy.token);
    const target = formatEther(((cap?.wei ?? 0n) * 12n) / 10n);
    const stop = await arm(
      healthy.token,
      { trigger: { any: [{ type: "marketCap", atLeast: target }] }, action: { percent: 100 } },
      otherKey,
    );
    const whale = await outsider();
    await whale.buy(healthy.token, "2");
    await whale.buy(broken.token, "2");

    const { firing } = await sentFiring(healthy.token, stop.id, 0, otherKey);
    expect(firing.transactions.length).toBeGreaterThan(0);
    await tick();
    const read = await ruleOf(broken.token, guard.id);
    expect(read.state).toBe("armed");
    expect(read.firings).toEqual([]);
    expect(read.reading?.error).toBe(
      "Not read at this block: outside buys: the launchpad's events could not be read (this node does not serve event logs)",
    );
    expect(read.reading?.conditions).toMatchObject([
      {
        type: "outsideBuys",
        met: false,
        text: "outside buys: not read at this block (the launchpad's events could not be read)",
      },
    ]);
  });
});
