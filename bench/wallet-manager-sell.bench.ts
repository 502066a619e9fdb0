// Exit sells through the real route (POST /api/bundle/wallets/sell, in process, on the local
// chain: anvil mining a block a second behind the dev builder), sent as bundles (the default
// route): each request is made just after a block, then every transaction is waited for.
// Per builder cap (50: BSC builders' top tier; 101: room for 50 approvals and sales and a
// tip) and per request: 50 wallets' first sell (50%: an approval and a sale each), the same
// 50 wallets selling the rest (sales only), 100 wallets' first sell (100%). Prints the
// request's time, the RPC requests it made, the bundles, the blocks from the head at the
// request to the last receipt and how many blocks the sells span; then the gas of a sale
// against an approval and a sale. Goals (issue 28): 50 wallets in 1 block, 100 in at most 2.
// Exits non-zero when the sells span other than one block per bundle.
import { profiles } from "@bundler/chain";
import type { SellTransaction } from "@bundler/shared";
import type { Address, Hex, TransactionReceipt } from "viem";
import { localChainContext } from "../apps/server/src/lib/chain-context.ts";
import { createTestApp, type TestApp } from "../apps/server/src/test/app.ts";
import { launchBundle } from "../apps/server/src/test/bundles.ts";
import { startTestChain, type TestChain } from "../apps/server/src/test/chain.ts";
import { median } from "./lib/localChain.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { type RpcProxy, startRpcProxy } from "./lib/rpcProxy.ts";

const CAPS = [50, 101];
const say = (line = "") => process.stdout.write(`${line}\n`);

let testChain: TestChain | undefined;
let app: TestApp | undefined;
let proxy: RpcProxy | undefined;
/** The user whose bundles the requests sell. */
let ownerKey = "";
const cleanup = async () => {
  await app?.close();
  await proxy?.close();
  await testChain?.stop();
  app = undefined;
  proxy = undefined;
  testChain = undefined;
};
const interrupted = onInterrupt(cleanup);

interface Run {
  cap: number;
  name: string;
  wallets: number;
  bundles: number;
  blocks: number;
  span: number;
  txs: SellTransaction[];
  receipts: TransactionReceipt[];
}

const sellOnce = async (
  cap: number,
  name: string,
  token: Address,
  wallets: Address[],
  amount: string,
): Promise<Run> => {
  if (!app || !testChain || !proxy) throw new Error("not started");
  const client = testChain.chain.client;
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
    headers: { "x-auth-key": ownerKey },
    payload: { address: token, wallets, amount, isPercentage: true },
  });
  const ms = performance.now() - began;
  const requests = proxy.requests.length;
  if (response.statusCode !== 200) throw new Error(`sell: ${response.body}`);
  const body = response.json() as { transactions: SellTransaction[]; bundles: number };
  const sent = body.transactions.filter((t) => t.hash);
  const failed = body.transactions.filter((t) => t.status === "failed");
  if (failed.length > 0) throw new Error(`sells failed: ${failed[0]?.error}`);
  const receipts = await Promise.all(
    sent.map((t) =>
      client.waitForTransactionReceipt({ hash: t.hash as Hex, pollingInterval: 100 }),
    ),
  );
  if (receipts.some((r) => r.status !== "success")) throw new Error("a sell reverted");
  const last = Math.max(...receipts.map((r) => Number(r.blockNumber)));
  const run: Run = {
    cap,
    name,
    wallets: wallets.length,
    bundles: body.bundles,
    blocks: last - Number(head),
    span: new Set(receipts.map((r) => r.blockNumber)).size,
    txs: sent,
    receipts,
  };
  say(
    `  ${String(cap).padStart(4)} ${name.padEnd(22)} ${`${ms.toFixed(0)} ms`.padStart(8)} ` +
      `${String(requests).padStart(5)} ${String(sent.length).padStart(5)} ${String(run.bundles).padStart(8)} ` +
      `${String(run.blocks).padStart(7)} ${String(run.span).padStart(5)}`,
  );
  return run;
};

const main = async () => {
  const startedAt = performance.now();
  const runs: Run[] = [];
  say("chain: anvil (a block a second) behind the dev builder; sells as bundles (route bundle)");
  say();
  say(
    `  ${"cap".padStart(4)} ${"request".padEnd(22)} ${"time".padStart(8)} ${"RPC".padStart(5)} ` +
      `${"txs".padStart(5)} ${"bundles".padStart(8)} ${"blocks".padStart(7)} ${"span".padStart(5)}`,
  );
  for (const cap of CAPS) {
    if (interrupted()) return;
    const masterKey = Buffer.alloc(32, 32);
    testChain = await startTestChain(masterKey, { blockTime: 1, builderMaxTxs: cap });
    // The server reaches the chain through a counting proxy; launches in setup go around it.
    proxy = await startRpcProxy(testChain.chain.rpcUrl);
    const chain = localChainContext(
      profiles.local,
      { ...testChain.local, builderUrl: proxy.url },
      cap,
    );
    app = await createTestApp({ chain, masterKey });
    ownerKey = await app.auth.mintKey("user");
    const fifty = await launchBundle(app, testChain, ownerKey, { wallets: 50, buy: "0.02" });
    const fiftyWallets = fifty.wallets.map((w) => w.address);
    runs.push(await sellOnce(cap, "50 wallets, first 50%", fifty.token, fiftyWallets, "50"));
    runs.push(await sellOnce(cap, "50 wallets, the rest", fifty.token, fiftyWallets, "100"));
    const hundred = await launchBundle(app, testChain, ownerKey, { wallets: 100, buy: "0.02" });
    runs.push(
      await sellOnce(
        cap,
        "100 wallets, first 100%",
        hundred.token,
        hundred.wallets.map((w) => w.address),
        "100",
      ),
    );
    await cleanup();
  }
  if (interrupted()) return;

  const gasOf = (run: Run | undefined, kind: SellTransaction["kind"]) =>
    median(
      (run?.txs ?? []).flatMap((t, i) =>
        t.kind === kind ? [Number(run?.receipts[i]?.gasUsed ?? 0n)] : [],
      ),
    );
  const first = runs.find((r) => r.name.startsWith("50 wallets, first"));
  const rest = runs.find((r) => r.name === "50 wallets, the rest");
  const approve = gasOf(first, "approve");
  const firstSale = gasOf(first, "sell");
  const sale = gasOf(rest, "sell");
  say();
  say(
    `gas (median): approval ${approve.toFixed(0)}, sale after it ${firstSale.toFixed(0)}, ` +
      `approval + sale ${(approve + firstSale).toFixed(0)}; a sale of an approved wallet ` +
      `${sale.toFixed(0)}: ${((approve + firstSale) / sale).toFixed(2)}x less than approve + sale`,
  );
  for (const cap of CAPS) {
    const of = (name: string) => runs.find((r) => r.cap === cap && r.name.startsWith(name));
    const blocks = (r: Run | undefined) => (r ? `${r.blocks} block(s)` : "-");
    say(
      `cap ${cap}: 50 wallets first sell ${blocks(of("50 wallets, first"))}, approved ` +
        `${blocks(of("50 wallets, the rest"))} (goal 1); 100 wallets ` +
        `${blocks(of("100 wallets"))} (goal at most 2)`,
    );
  }
  say(`bench took ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
  const missed = runs.filter((r) => r.span !== r.bundles);
  if (missed.length > 0) {
    process.stderr.write(
      `a bundle missed its block: ${missed.map((r) => `cap ${r.cap} ${r.name}`).join(", ")}\n`,
    );
    process.exitCode = 1;
  }
};

try {
  await main();
} finally {
  await cleanup();
}
