// A full launch through the real server's API on its local chain (anvil, blockTime 1, dev
// builder cap 60): for 10 and for 50 bundle wallets, a draft with a deployer and N wallets,
// every wallet funded from /api/dev/faucet, the launch fee paid, then the time from
// POST /api/draft/:id/execute until the draft reads "executed", and how many blocks the
// launch block lies past the head at execute time. Prints figures; asserts nothing.
import { randomUUID } from "node:crypto";
import type { Draft } from "@bundler/shared";
import type { Address, Hex } from "viem";
import { median } from "./lib/localChain.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import {
  makeDataDir,
  type RunningServer,
  removeDir,
  startServer,
  stopAllServers,
} from "./lib/server.ts";
import { api, keyedWallet, TINY_PNG } from "./lib/server-api.ts";

const WALLET_COUNTS = [10, 50] as const;
const RUNS = 3;
const MAX_TXS = 60;
const LAUNCH_FEE_BNB = "0.01";
const EXECUTE_TIMEOUT_MS = 120_000;
const POLL_MS = 100;

const say = (line = "") => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dataDir: string | undefined;
const cleanup = async () => {
  await stopAllServers();
  if (dataDir) removeDir(dataDir);
  dataDir = undefined;
};

onInterrupt(cleanup);

const blockNumber = async (rpcUrl: string): Promise<bigint> => {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  const { result } = (await response.json()) as { result: Hex };
  return BigInt(result);
};

const faucet = (server: RunningServer, key: string, address: Address, amount: string) =>
  api(server, key, "POST", "/api/dev/faucet", { address, amount });

interface Run {
  executeMs: number;
  blocks: number;
  /** The setup (draft, funding, fee) before execute, ms: context, not measured. */
  setupMs: number;
}

const launchOnce = async (
  server: RunningServer,
  rpcUrl: string,
  key: string,
  wallets: number,
): Promise<Run> => {
  const setupStarted = performance.now();
  const deployer = keyedWallet();
  const bundle = Array.from({ length: wallets }, (_, i) => ({
    ...keyedWallet(),
    buyValue: (0.01 + i * 0.0002).toFixed(4),
  }));
  const { draftId } = await api<{ draftId: string }>(server, key, "POST", "/api/draft/create", {
    tokenInfo: {
      name: `Bench ${wallets}`,
      symbol: "BNCH",
      description: "launched by bench/launch-execute.bench.ts",
      image: `data:image/png;base64,${TINY_PNG}`,
      preSale: "0.05",
    },
    deployerWallet: deployer,
    walletConfig: { wallets: bundle, tip: "0.001" },
  });

  // The faucet sends one transfer at a time (one receipt each); all requests go at once.
  await Promise.all([
    faucet(server, key, deployer.address, "2"),
    ...bundle.map((wallet) => faucet(server, key, wallet.address, "0.2")),
  ]);

  const payment = await api<{ paymentAddress: Address; paymentAmount: string }>(
    server,
    key,
    "POST",
    `/api/draft/${draftId}/payment`,
  );
  await faucet(server, key, payment.paymentAddress, payment.paymentAmount);
  const paidBy = performance.now() + 60_000;
  for (;;) {
    const status = await api<{ isPaid: boolean }>(
      server,
      key,
      "GET",
      `/api/draft/${draftId}/payment/status`,
    );
    if (status.isPaid) break;
    if (performance.now() > paidBy) throw new Error("the launch fee was not credited in 60 s");
    await sleep(200);
  }
  const setupMs = performance.now() - setupStarted;

  const headAtExecute = await blockNumber(rpcUrl);
  const started = performance.now();
  await api(server, key, "POST", `/api/draft/${draftId}/execute`);
  let draft: Draft;
  for (;;) {
    ({ draft } = await api<{ draft: Draft }>(server, key, "GET", `/api/draft/${draftId}`));
    if (draft.status === "executed") break;
    if (draft.status !== "executing" && draft.status !== "paid")
      throw new Error(`draft went to ${draft.status}`);
    if (performance.now() - started > EXECUTE_TIMEOUT_MS)
      throw new Error(`not executed after ${EXECUTE_TIMEOUT_MS} ms (status ${draft.status})`);
    await sleep(POLL_MS);
  }
  const executeMs = performance.now() - started;
  const launch = draft.launch;
  if (!launch) throw new Error("executed without a launch record");
  if (launch.atomicWallets !== wallets)
    say(`  note: ${launch.atomicWallets}/${launch.totalWallets} wallets in the atomic bundle`);
  return { executeMs, blocks: Number(BigInt(launch.blockNumber) - headAtExecute), setupMs };
};

const main = async () => {
  dataDir = makeDataDir();
  const server = await startServer({
    dataDir,
    env: {
      LOCAL_BUILDER_MAX_TXS: String(MAX_TXS),
      LAUNCH_FEE_BNB,
      FREE_KEY_LIMIT_PER_HOUR: "1000",
      DATABASE_URL: "",
    },
  });
  const rpcUrl = `http://127.0.0.1:${server.anvilPort}`;
  say(
    `real server ready in ${server.readySeconds.toFixed(1)} s (anvil blockTime 1, builder cap ${MAX_TXS}, fee ${LAUNCH_FEE_BNB} BNB)`,
  );
  const response = await fetch(`${server.url}/api/auth/key/generate-free`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ deviceId: `bench-device-${randomUUID()}`, userAgent: "bench" }),
  });
  const { key } = (await response.json()) as { key?: string };
  if (!response.ok || !key) throw new Error(`generate-free answered ${response.status}`);

  const summary: Array<{ wallets: number; ms: number; blocks: number }> = [];
  for (const wallets of WALLET_COUNTS) {
    say();
    say(`${wallets} wallets, ${RUNS} runs:`);
    const runs: Run[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const result = await launchOnce(server, rpcUrl, key, wallets);
      runs.push(result);
      say(
        `  run ${run}: execute → executed ${result.executeMs.toFixed(0)} ms, ` +
          `${result.blocks} block(s) past the head (setup ${(result.setupMs / 1000).toFixed(1)} s)`,
      );
    }
    const ms = median(runs.map((r) => r.executeMs));
    const blocks = median(runs.map((r) => r.blocks));
    summary.push({ wallets, ms, blocks });
    say(`  median: ${ms.toFixed(0)} ms, ${blocks} block(s)`);
  }

  say();
  say("execute → executed (median of 3):");
  for (const { wallets, ms, blocks } of summary)
    say(
      `  ${String(wallets).padStart(2)} wallets: ${ms.toFixed(0).padStart(6)} ms  ${blocks} block(s)`,
    );
  const [small, large] = summary;
  if (small && large) say(`  50 vs 10 wallets: ${(large.ms / small.ms).toFixed(2)}× the time`);
  say("  (blocks = the launch block − eth_blockNumber read just before execute)");
};

try {
  await main();
} finally {
  await cleanup();
}
