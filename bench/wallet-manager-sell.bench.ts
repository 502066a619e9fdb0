// A 100% sell from 50 bundle wallets through the real route (POST /api/bundle/wallets/sell,
// in process, on the local chain: anvil mining a block a second behind the dev builder): the
// request is made just after a block is mined, then every approval and sale is waited for.
// Prints, per run, the request's time, the RPC requests it made, the blocks from the head at
// the request to the last receipt, and how many blocks the sells span. Exits non-zero when any
// run needs more than LIMIT block(s) from the request to its last receipt.
import { profiles } from "@bundler/chain";
import type { SellTransaction } from "@bundler/shared";
import type { Hex } from "viem";
import { localChainContext } from "../apps/server/src/lib/chain-context.ts";
import { createTestApp, type TestApp } from "../apps/server/src/test/app.ts";
import { launchBundle } from "../apps/server/src/test/bundles.ts";
import { startTestChain, type TestChain } from "../apps/server/src/test/chain.ts";
import { median } from "./lib/localChain.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { type RpcProxy, startRpcProxy } from "./lib/rpcProxy.ts";

const WALLETS = 50;
const RUNS = 3;
/** Blocks from the head at the request to the block of the last receipt. */
const LIMIT = 1;

const say = (line = "") => process.stdout.write(`${line}\n`);

let testChain: TestChain | undefined;
let app: TestApp | undefined;
let proxy: RpcProxy | undefined;
const cleanup = async () => {
  await app?.close();
  await proxy?.close();
  await testChain?.stop();
};
const interrupted = onInterrupt(cleanup);

const main = async () => {
  const startedAt = performance.now();
  const masterKey = Buffer.alloc(32, 32);
  testChain = await startTestChain(masterKey);
  // The server reaches the chain through a counting proxy; launches in setup go around it.
  proxy = await startRpcProxy(testChain.chain.rpcUrl);
  const chain = localChainContext(
    profiles.local,
    { ...testChain.local, builderUrl: proxy.url },
    50,
  );
  app = await createTestApp({ chain, masterKey });
  const key = await app.auth.mintKey("user");
  const client = testChain.chain.client;
  say(`chain: anvil (a block a second) behind the dev builder; ${WALLETS} wallets, ${RUNS} runs`);
  say();
  say(
    `  ${"run".padEnd(4)} ${"request".padStart(9)} ${"RPC reqs".padStart(9)} ${"txs".padStart(5)} ` +
      `${"head".padStart(6)} ${"last rcpt".padStart(10)} ${"blocks".padStart(7)} ${"span".padStart(5)}`,
  );
  const runs: Array<{ ms: number; blocks: number; span: number }> = [];
  for (let run = 1; run <= RUNS && !interrupted(); run++) {
    const bundle = await launchBundle(app, testChain, key, { wallets: WALLETS, buy: "0.02" });
    // Start right after a block: the request has a whole block time to be sent.
    const before = await client.getBlockNumber();
    while ((await client.getBlockNumber()) === before)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const head = await client.getBlockNumber();
    proxy.reset();
    const began = performance.now();
    const response = await app.server.inject({
      method: "POST",
      url: "/api/bundle/wallets/sell",
      headers: { "x-auth-key": key },
      payload: {
        address: bundle.token,
        wallets: bundle.wallets.map((w) => w.address),
        amount: "100",
        isPercentage: true,
      },
    });
    const ms = performance.now() - began;
    const requests = proxy.requests.length;
    if (response.statusCode !== 200) throw new Error(`sell: ${response.body}`);
    const txs = (response.json() as { transactions: SellTransaction[] }).transactions;
    const sent = txs.filter((t) => t.hash);
    if (sent.filter((t) => t.kind === "sell").length !== WALLETS)
      throw new Error(`only ${sent.length} transactions were sent: ${response.body}`);
    const receipts = await Promise.all(
      sent.map((t) =>
        client.waitForTransactionReceipt({ hash: t.hash as Hex, pollingInterval: 100 }),
      ),
    );
    if (receipts.some((r) => r.status !== "success")) throw new Error("a sell reverted");
    const blocks = new Set(receipts.map((r) => r.blockNumber));
    const last = Math.max(...receipts.map((r) => Number(r.blockNumber)));
    runs.push({ ms, blocks: last - Number(head), span: blocks.size });
    say(
      `  ${String(run).padEnd(4)} ${`${ms.toFixed(0)} ms`.padStart(9)} ${String(requests).padStart(9)} ` +
        `${String(sent.length).padStart(5)} ${String(head).padStart(6)} ${String(last).padStart(10)} ` +
        `${String(last - Number(head)).padStart(7)} ${String(blocks.size).padStart(5)}`,
    );
  }
  if (interrupted()) return;
  const worst = Math.max(...runs.map((r) => r.blocks));
  say();
  say(
    `request median ${median(runs.map((r) => r.ms)).toFixed(0)} ms; blocks from the request to ` +
      `the last receipt: worst ${worst} (limit ${LIMIT}); every sell of a run in one block: ` +
      `${runs.every((r) => r.span === 1) ? "yes" : "NO"}`,
  );
  say(`bench took ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
  if (worst > LIMIT || runs.some((r) => r.span !== 1)) {
    process.stderr.write(`a sell of ${WALLETS} wallets took more than ${LIMIT} block(s)\n`);
    process.exitCode = 1;
  }
};

try {
  await main();
} finally {
  await cleanup();
}
