// Dispersals through the real server (child process) against anvil (blockTime 1) behind a
// counting JSON-RPC proxy: 100 destinations with anti bubblemaps (11 transfers per chain, so
// the floor is 11 blocks whatever the number of destinations) and 100 without (one transfer
// each, all from the receiver). For each: blocks from "funding seen" to "completed" against
// the floor, RPC requests per block in that span, and transactions per block.
// Prints figures; asserts nothing.
import { randomBytes } from "node:crypto";
import { startAnvil, WALLETS_PER_CHAIN } from "@bundler/chain";
import { MULTICALL3_ADDRESS, Multicall3Artifact } from "@bundler/contracts";
import type { Dispersal } from "@bundler/shared";
import { MAX_DISPERSAL_WALLETS } from "@bundler/shared";
import { type Address, createPublicClient, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { onPostgres } from "./lib/postgres.ts";
import { type RpcProxy, startRpcProxy } from "./lib/rpcProxy.ts";
import {
  freePort,
  makeDataDir,
  type RunningServer,
  removeDir,
  startServer,
  stopAllServers,
} from "./lib/server.ts";

const DESTINATIONS = 100;
const LARGE_DISPERSALS = 2;
const LARGE_GOAL_BLOCKS = 13;
const POLL_MS = 100;
const PROCESSES = Math.max(1, Number.parseInt(process.env.DISPERSE_PROCESSES ?? "1", 10) || 1);
const say = (line = "") => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cleanupTasks: Array<() => Promise<void>> = [];
const cleanup = async () => {
  await stopAllServers();
  for (const task of cleanupTasks.reverse()) await task().catch(() => undefined);
  cleanupTasks = [];
};
onInterrupt(cleanup);

const api = async <T>(
  server: RunningServer,
  key: string,
  method: string,
  route: string,
  body?: unknown,
) => {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { "x-auth-key": key, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
};

/** A fresh account holding 1,000 BNB on anvil: it funds the dispersals. */
const richAccount = async (rpcUrl: string) => {
  const account = privateKeyToAccount(generatePrivateKey());
  await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "anvil_setBalance",
      params: [account.address, `0x${parseEther("1000").toString(16)}`],
    }),
  });
  return account;
};

const run = async (
  server: RunningServer,
  key: string,
  proxy: RpcProxy,
  rpcUrl: string,
  antiBubblemaps: boolean,
) => {
  const client = createPublicClient({ transport: http(rpcUrl), cacheTime: 0 });
  const wallets = Array.from(
    { length: DESTINATIONS },
    () => privateKeyToAccount(generatePrivateKey()).address,
  );
  const amounts = wallets.map((_, i) => `0.01${i}`);
  const created = await api<Dispersal>(server, key, "POST", "/api/wallets/disperse", {
    wallets,
    amounts,
    antiBubblemaps,
  });
  const funder = await richAccount(rpcUrl);
  await createWalletClient({ account: funder, transport: http(rpcUrl) }).sendTransaction({
    chain: null,
    to: created.receiver as Address,
    value: parseEther(created.amount),
  });

  let seenBlock: bigint | undefined;
  let requestsAtSeen = 0;
  let callsAtSeen = 0;
  for (;;) {
    const now = await api<Dispersal>(
      server,
      key,
      "GET",
      `/api/wallets/disperse/status?dispersalId=${created.receiver}`,
    );
    if (seenBlock === undefined && now.status !== "pending") {
      seenBlock = await client.getBlockNumber();
      requestsAtSeen = proxy.requests.length;
      callsAtSeen = proxy.calls();
    }
    if (now.status === "completed" || now.status === "partial" || now.status === "failed") {
      if (now.status !== "completed") throw new Error(`dispersal ended ${now.status}`);
      break;
    }
    await sleep(POLL_MS);
  }
  const doneBlock = await client.getBlockNumber();
  const requests = proxy.requests.length - requestsAtSeen;
  const calls = proxy.calls() - callsAtSeen;
  const startBlock = seenBlock ?? doneBlock;
  const blocks = Number(doneBlock - startBlock);

  const txCounts: number[] = [];
  for (let n = startBlock; n <= doneBlock; n++) {
    const block = await client.getBlock({ blockNumber: n });
    if (block.transactions.length > 0) txCounts.push(block.transactions.length);
  }
  const finals = await Promise.all(wallets.map((address) => client.getBalance({ address })));
  const exact = finals.every((b, i) => b === parseEther(amounts[i] as string));
  return { blocks, requests, calls, txCounts, exact };
};

const main = async () => {
  const anvil = await startAnvil({
    port: await freePort(),
    chainId: 31337,
    blockTime: 1,
    stateFile: null,
  });
  cleanupTasks.push(() => anvil.stop());
  await fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "anvil_setCode",
      params: [MULTICALL3_ADDRESS, Multicall3Artifact.deployedBytecode],
    }),
  });
  const proxy = await startRpcProxy(anvil.rpcUrl);
  cleanupTasks.push(() => proxy.close());
  const dataDir = makeDataDir();
  cleanupTasks.push(async () => removeDir(dataDir));
  const env: Record<string, string> = {
    RPC_URL: proxy.url,
    CHAIN: "local",
    MASTER_KEY: randomBytes(32).toString("hex"),
    DATABASE_URL: "",
  };
  // DATABASE_URL: a fresh database on that Postgres; DISPERSE_PROCESSES=n servers on it.
  let database = "PGlite";
  if (process.env.DATABASE_URL) {
    const name = `lb_disperse_${randomBytes(4).toString("hex")}`;
    await onPostgres(`CREATE DATABASE ${name}`);
    cleanupTasks.push(() => onPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    database = "Postgres";
  }
  if (PROCESSES > 1 && database === "PGlite")
    throw new Error("DISPERSE_PROCESSES > 1 needs DATABASE_URL (PGlite is one process)");
  const nodeArgs = process.env.BENCH_PROFILE_DIR
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const server = await startServer({ dataDir, env, nodeArgs });
  for (let n = 1; n < PROCESSES; n++) await startServer({ dataDir, env, nodeArgs });
  const { key } = await api<{ key: string }>(server, "", "POST", "/api/auth/key/generate-free", {
    deviceId: `bench-${randomBytes(8).toString("hex")}`,
    userAgent: "bench",
  });

  say(
    `${DESTINATIONS} destinations, anvil blockTime 1 s, ${PROCESSES} server process${PROCESSES > 1 ? "es" : ""} on ${database} and anvil on this machine`,
  );
  for (const anti of process.env.DISPERSE_SMALL === "0" ? [] : [true, false]) {
    const r = await run(server, key, proxy, anvil.rpcUrl, anti);
    const floor = anti ? WALLETS_PER_CHAIN + 1 : 1;
    say("");
    say(`anti bubblemaps ${anti ? "on" : "off"}: every final balance exact: ${r.exact}`);
    say(
      `  blocks from funding seen to completed: ${r.blocks} (floor ${floor}, ratio ${(r.blocks / floor).toFixed(2)}x)`,
    );
    say(
      `  RPC per block: ${(r.requests / Math.max(r.blocks, 1)).toFixed(1)} HTTP requests, ${(r.calls / Math.max(r.blocks, 1)).toFixed(1)} JSON-RPC calls (incl. the 4/s head poll)`,
    );
    say(
      `  transactions per non-empty block: ${r.txCounts.join(", ")} (the funding transfer counts when its block is in the span)`,
    );
  }
  if (process.env.DISPERSE_LARGE !== "0") await runLarge(server, key, anvil.rpcUrl);
};

/**
 * 1,000 anti-bubblemaps destinations (two dispersals of 500, the most one takes) funded in one
 * block: blocks from both funded to both completed, against the goal of 13 (the floor is 11).
 */
const runLarge = async (server: RunningServer, key: string, rpcUrl: string) => {
  const client = createPublicClient({ transport: http(rpcUrl), cacheTime: 0 });
  const created: Array<Dispersal & { wallets: Address[]; amounts: string[] }> = [];
  for (let d = 0; d < LARGE_DISPERSALS; d++) {
    const wallets = Array.from(
      { length: MAX_DISPERSAL_WALLETS },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );
    const amounts = wallets.map((_, i) => `0.001${i}`);
    const dispersal = await api<Dispersal>(server, key, "POST", "/api/wallets/disperse", {
      wallets,
      amounts,
      antiBubblemaps: true,
    });
    created.push({ ...dispersal, wallets, amounts });
  }
  const funder = await richAccount(rpcUrl);
  const wallet = createWalletClient({ account: funder, transport: http(rpcUrl) });
  const fundedAt = await client.getBlockNumber();
  for (const d of created)
    await wallet.sendTransaction({
      chain: null,
      to: d.receiver as Address,
      value: parseEther(d.amount),
    });
  let seenBlock: bigint | undefined;
  for (;;) {
    const now = await Promise.all(
      created.map((d) =>
        api<Dispersal>(
          server,
          key,
          "GET",
          `/api/wallets/disperse/status?dispersalId=${d.receiver}`,
        ),
      ),
    );
    if (seenBlock === undefined && now.every((d) => d.status !== "pending"))
      seenBlock = await client.getBlockNumber();
    const ended = now.filter((d) => ["completed", "partial", "failed"].includes(d.status));
    if (ended.length === now.length) {
      const bad = ended.find((d) => d.status !== "completed");
      if (bad) throw new Error(`a large dispersal ended ${bad.status}`);
      break;
    }
    await sleep(POLL_MS * 5);
  }
  const doneBlock = await client.getBlockNumber();
  const blocks = Number(doneBlock - (seenBlock ?? fundedAt));
  let exact = true;
  for (const d of created.slice(0, 1)) {
    const sample = d.wallets.slice(0, 20);
    const balances = await Promise.all(sample.map((address) => client.getBalance({ address })));
    exact &&= balances.every((b, i) => b === parseEther(d.amounts[i] as string));
  }
  say("");
  say(
    `${LARGE_DISPERSALS * MAX_DISPERSAL_WALLETS} destinations anti bubblemaps (${LARGE_DISPERSALS} dispersals of ${MAX_DISPERSAL_WALLETS}): ${blocks} blocks from funding seen to completed (goal at most ${LARGE_GOAL_BLOCKS}: ${blocks <= LARGE_GOAL_BLOCKS ? "met" : "NOT met"}); sampled final balances exact: ${exact}`,
  );
};

main()
  .catch((error: unknown) => {
    process.stderr.write(`disperse bench failed: ${(error as Error).message}\n`);
    process.exitCode = 1;
  })
  .finally(cleanup);
