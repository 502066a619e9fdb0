// Bundles across two builders (issue 37, "Landing statistics per builder"): the real server on
// its local chain with its two dev builders ("local", cap 50; "local-slow", cap 5, answering
// after 300 ms), the first refusing 30% of bundles at random. BUILDERS_LAUNCHES launches of two
// buying wallets (create, 2 buys, tip: both builders take them), then one sell bundle per
// launched token (2 approvals, 2 sales, tip). Checks, and exits non-zero when one fails:
//   - every launch executed and every sale landed, exactly once: the chain holds exactly one tip
//     per bundle (launches + sells), to one builder or the other, never both variants;
//   - the builders' own counts (dev_bundleCounts) of bundles sent, taken and refused match the
//     app's statistics (GET /api/admin/builders/stats), and the landings it counts per builder
//     match the tips each builder's address received on chain.
// BUILDERS_LAUNCHES (100), BUILDERS_CONCURRENCY (4).
import { randomUUID } from "node:crypto";
import type { BuilderStatsResponse, BuilderStatsWindow, Draft } from "@bundler/shared";
import type { Address, Hex } from "viem";
import { onInterrupt } from "./lib/on-interrupt.ts";
import {
  makeDataDir,
  type RunningServer,
  removeDir,
  startServer,
  stopAllServers,
} from "./lib/server.ts";
import { api, keyedWallet, TINY_PNG } from "./lib/server-api.ts";

const envInt = (name: string, fallback: number) => {
  const value = Number.parseInt(process.env[name] ?? "", 10);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const LAUNCHES = envInt("BUILDERS_LAUNCHES", 100);
const CONCURRENCY = envInt("BUILDERS_CONCURRENCY", 4);
const REFUSE_SHARE = 0.3;
const TIP_ADDRESSES = {
  local: "0x000000000000000000000000000000000000beef",
  "local-slow": "0x000000000000000000000000000000000000bee5",
} as const;
type BuilderName = keyof typeof TIP_ADDRESSES;
const TIMEOUT_MS = 120_000;

const say = (line = "") => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dataDir: string | undefined;
const cleanup = async () => {
  await stopAllServers();
  if (dataDir) removeDir(dataDir);
  dataDir = undefined;
};
onInterrupt(cleanup);

const rpc = async <T>(url: string, method: string, params: unknown[] = []): Promise<T> => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
};

/** Runs `work` over `items`, `limit` at a time. */
const pool = async <T, R>(items: T[], limit: number, work: (item: T) => Promise<R>) => {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i] as T);
      }
    }),
  );
  return results;
};

const until = async <T>(what: string, read: () => Promise<T | undefined>): Promise<T> => {
  const deadline = performance.now() + TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not in ${TIMEOUT_MS} ms`);
    await sleep(250);
  }
};

interface Launched {
  token: Address;
  wallets: Address[];
}

const launchOne = async (server: RunningServer, key: string, n: number): Promise<Launched> => {
  const deployer = keyedWallet();
  const wallets = [keyedWallet(), keyedWallet()].map((w, i) => ({
    ...w,
    buyValue: (0.01 + i * 0.001).toFixed(4),
  }));
  const { draftId } = await api<{ draftId: string }>(server, key, "POST", "/api/draft/create", {
    tokenInfo: {
      name: `Builders ${n}`,
      symbol: "BLDR",
      description: "launched by bench/builders.bench.ts",
      image: `data:image/png;base64,${TINY_PNG}`,
      preSale: "0.01",
    },
    deployerWallet: deployer,
    walletConfig: { wallets, tip: "0.001" },
  });
  const faucet = (address: Address, amount: string) =>
    api(server, key, "POST", "/api/dev/faucet", { address, amount });
  await faucet(deployer.address, "1");
  for (const w of wallets) await faucet(w.address, "0.1");
  const payment = await api<{ paymentAddress: Address; paymentAmount: string }>(
    server,
    key,
    "POST",
    `/api/draft/${draftId}/payment`,
  );
  await faucet(payment.paymentAddress, payment.paymentAmount);
  await until("the launch fee credited", async () => {
    const status = await api<{ isPaid: boolean }>(
      server,
      key,
      "GET",
      `/api/draft/${draftId}/payment/status`,
    );
    return status.isPaid ? true : undefined;
  });
  await api(server, key, "POST", `/api/draft/${draftId}/execute`);
  const draft = await until("the launch executed", async () => {
    const { draft } = await api<{ draft: Draft }>(server, key, "GET", `/api/draft/${draftId}`);
    if (draft.status === "executed") return draft;
    if (draft.status !== "executing" && draft.status !== "paid")
      throw new Error(`launch ${n}: the draft went to ${draft.status}`);
    return undefined;
  });
  if (!draft.launch) throw new Error(`launch ${n}: executed without a launch record`);
  return {
    token: draft.launch.tokenAddress as Address,
    wallets: wallets.map((w) => w.address),
  };
};

const balanceOf = (rpcUrl: string, token: Address, wallet: Address) =>
  rpc<Hex>(rpcUrl, "eth_call", [
    {
      to: token,
      data: `0x70a08231${wallet.slice(2).toLowerCase().padStart(64, "0")}`,
    },
    "latest",
  ]).then(BigInt);

const sellOne = async (
  server: RunningServer,
  rpcUrl: string,
  key: string,
  launched: Launched,
): Promise<string | null> => {
  const held = await Promise.all(launched.wallets.map((w) => balanceOf(rpcUrl, launched.token, w)));
  const requestId = randomUUID();
  // A refused bundle fails its sells; the same request asked again sends a new attempt.
  for (let attempt = 0; attempt < 10; attempt++) {
    await api(server, key, "POST", "/api/bundle/wallets/sell", {
      address: launched.token,
      wallets: launched.wallets,
      amount: "50",
      isPercentage: true,
      requestId,
    }).catch(() => undefined);
    const now = await Promise.all(
      launched.wallets.map((w) => balanceOf(rpcUrl, launched.token, w)),
    ).catch(() => held);
    if (now.every((balance, i) => balance < (held[i] ?? 0n))) {
      const soldTwice = now.some((balance, i) => balance < (held[i] ?? 0n) / 2n - 1n);
      return soldTwice ? `${launched.token}: a wallet sold more than half` : null;
    }
    await sleep(1500);
  }
  return `${launched.token}: the sale never landed`;
};

/** Tips to each builder's address in blocks `from`..`to`, read from the chain. */
const tipsOnChain = async (rpcUrl: string, from: bigint, to: bigint) => {
  const tips: Record<BuilderName, number> = { local: 0, "local-slow": 0 };
  for (let n = from; n <= to; n++) {
    const block = await rpc<{ transactions: Array<{ to: string | null }> }>(
      rpcUrl,
      "eth_getBlockByNumber",
      [`0x${n.toString(16)}`, true],
    );
    for (const tx of block.transactions)
      for (const [name, address] of Object.entries(TIP_ADDRESSES))
        if (tx.to?.toLowerCase() === address) tips[name as BuilderName] += 1;
  }
  return tips;
};

interface DevCounts {
  received: number;
  accepted: number;
  refused: number;
}

const main = async () => {
  const began = performance.now();
  dataDir = makeDataDir();
  const server = await startServer({
    dataDir,
    env: {
      LAUNCH_FEE_BNB: "0.01",
      FREE_KEY_LIMIT_PER_HOUR: "100000",
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      LOCAL_SLOW_BUILDER_MAX_TXS: "5",
      FAUCET_PER_MINUTE: "100000",
    },
  });
  const { builderUrl, slowBuilderUrl, superadminKey } = server;
  if (!builderUrl || !slowBuilderUrl || !superadminKey)
    throw new Error("the server's banner did not show both builders and the superadmin key");
  const rpcUrl = `http://127.0.0.1:${server.anvilPort}`;
  const builders: Record<BuilderName, string> = { local: builderUrl, "local-slow": slowBuilderUrl };
  await rpc(builderUrl, "dev_setFaults", [
    { refuseShare: { share: REFUSE_SHARE, message: "bundle refused: a better block won" } },
  ]);
  const key = superadminKey;
  const first = BigInt(await rpc<Hex>(rpcUrl, "eth_blockNumber"));
  say(
    `builders: ${LAUNCHES} launches then ${LAUNCHES} sell bundles, ${CONCURRENCY} at a time, through "local" (cap 50, refusing ${REFUSE_SHARE * 100}% at random) and "local-slow" (cap 5, answers after 300 ms)`,
  );

  const launchStarted = performance.now();
  const launched = await pool(
    Array.from({ length: LAUNCHES }, (_, i) => i + 1),
    CONCURRENCY,
    (n) => launchOne(server, key, n),
  );
  say(
    `  ${launched.length} launches executed in ${((performance.now() - launchStarted) / 1000).toFixed(0)} s`,
  );
  const sellStarted = performance.now();
  const sellProblems = (
    await pool(launched, CONCURRENCY, (l) => sellOne(server, rpcUrl, key, l))
  ).filter((p): p is string => p !== null);
  say(
    `  ${launched.length - sellProblems.length} sell bundles landed in ${((performance.now() - sellStarted) / 1000).toFixed(0)} s`,
  );

  // Any variant still able to land does so within its window: let every window pass.
  const settled = BigInt(await rpc<Hex>(rpcUrl, "eth_blockNumber")) + 20n;
  while (BigInt(await rpc<Hex>(rpcUrl, "eth_blockNumber")) < settled) await sleep(500);
  const last = BigInt(await rpc<Hex>(rpcUrl, "eth_blockNumber"));
  const tips = await tipsOnChain(rpcUrl, first + 1n, last);
  const counts = Object.fromEntries(
    await Promise.all(
      Object.entries(builders).map(async ([name, url]) => [
        name,
        await rpc<DevCounts>(url, "dev_bundleCounts"),
      ]),
    ),
  ) as Record<BuilderName, DevCounts>;

  const problems = [...sellProblems];
  const bundles = launched.length * 2;
  const landed = tips.local + tips["local-slow"];
  if (landed !== bundles)
    problems.push(
      `${landed} tips on chain for ${bundles} bundles: every bundle must land exactly once`,
    );
  say();
  say("  builder      sent  taken  refused  landed (tips on chain)");
  for (const name of Object.keys(builders) as BuilderName[]) {
    const c = counts[name];
    say(
      `  ${name.padEnd(11)} ${String(c.received).padStart(5)} ${String(c.accepted).padStart(6)} ${String(c.refused).padStart(8)} ${String(tips[name]).padStart(7)}`,
    );
  }
  problems.push(...(await compareStats(server, superadminKey, counts, tips)));
  say();
  say(
    problems.length === 0
      ? "builders: every check met"
      : `builders: ${problems.length} checks NOT met`,
  );
  for (const problem of problems) say(`  - ${problem}`);
  say(`bench took ${((performance.now() - began) / 1000).toFixed(0)} s`);
  if (problems.length > 0) process.exitCode = 1;
};

/** The app's statistics against the builders' own counts and the chain's tips. */
const compareStats = async (
  server: RunningServer,
  adminKey: string,
  counts: Record<BuilderName, DevCounts>,
  tips: Record<BuilderName, number>,
): Promise<string[]> => {
  const onChain = tips.local + tips["local-slow"];
  // The landed pass resolves a send once its window has passed: wait for every landing.
  const deadline = performance.now() + TIMEOUT_MS;
  let day: BuilderStatsWindow | undefined;
  for (;;) {
    const { windows } = await api<BuilderStatsResponse>(
      server,
      adminKey,
      "GET",
      "/api/admin/builders/stats",
    );
    day = windows.find((w) => w.hours === 24);
    const landed = day?.builders.reduce((sum, b) => sum + b.landed, 0) ?? 0;
    if (landed >= onChain || performance.now() > deadline) break;
    await sleep(1000);
  }
  const problems: string[] = [];
  say();
  say("  the app's statistics (24 hours):");
  say("  builder      sent  accepted  refused  silent  skipped  landed  median/p95 blocks");
  for (const name of Object.keys(TIP_ADDRESSES) as BuilderName[]) {
    const stats = day?.builders.find((b) => b.builder === name);
    if (!stats) {
      problems.push(`the statistics have no row for ${name}`);
      continue;
    }
    say(
      `  ${name.padEnd(11)} ${String(stats.sent).padStart(5)} ${String(stats.accepted).padStart(9)} ${String(stats.refused).padStart(8)} ${String(stats.silent).padStart(7)} ${String(stats.skipped).padStart(8)} ${String(stats.landed).padStart(7)}  ${stats.medianBlocks?.toFixed(1) ?? "-"}/${stats.p95Blocks?.toFixed(1) ?? "-"}`,
    );
    const own = counts[name];
    const expect = (what: string, app: number, truth: number, source: string) => {
      if (app !== truth)
        problems.push(`${name}: the app counts ${app} ${what}, ${source} ${truth}`);
    };
    expect("sent", stats.sent, own.received, "the builder was sent");
    expect("accepted", stats.accepted, own.accepted, "the builder took");
    expect("refused", stats.refused, own.refused, "the builder refused");
    expect("landed", stats.landed, tips[name], "its tips on chain are");
    if (stats.silent !== 0) problems.push(`${name}: ${stats.silent} silent, none expected`);
  }
  return problems;
};

try {
  await main();
} finally {
  await cleanup();
}
