import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort, profiles, type StartAnvilReturnType, startAnvil } from "@bundler/chain";
import { MULTICALL3_ADDRESS, Multicall3Artifact } from "@bundler/contracts";
import type { Dispersal } from "@bundler/shared";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  http,
  type PublicClient,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client.ts";
import { BSC_BLOCK_SECONDS } from "../../test/crash-server.ts";
import { createPostgresDatabase } from "../../test/database.ts";
import { ServerProcess } from "../../test/server-process.ts";
import { accountFor, readDispersal } from "./dispersal-ledger.test-support.ts";

/**
 * The real server as a child process, killed with SIGKILL at chosen and random moments while
 * dispersals run against a chain that outlives it (as BSC outlives us), then started again.
 */
// Six random kills here (both databases); the reliability table's crashes row kills at random
// at a larger scale (`npm run reliability -- --rows=crashes`).
const RANDOM_CRASHES = 6;

let anvil: StartAnvilReturnType;
let client: PublicClient;
let dataDir: string;
let port: number;
let server: ServerProcess;
let postgres: { url: string; drop: () => Promise<void> } | undefined;
const masterKey = randomBytes(32).toString("hex");

const rpc = (method: string, params: unknown[]) =>
  fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });

const start = () => server.start();
const crash = () => server.crash();
const stop = () => server.stop();

const api = async (method: "GET" | "POST", url: string, body?: unknown) => {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { "x-auth-key": server.key, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await response.json()) as Dispersal & { success: boolean; error?: string };
};

const status = (receiver: string) =>
  api("GET", `/api/wallets/disperse/status?dispersalId=${receiver}`);

const waitFor = async (check: () => Promise<boolean>, what: string, timeoutMs = 120_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

const funder = privateKeyToAccount(generatePrivateKey());
const fund = async (to: string, value: bigint) => {
  const wallet = createWalletClient({ account: funder, transport: http(anvil.rpcUrl) });
  const hash = await wallet.sendTransaction({ chain: null, to: to as Address, value });
  await client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
};

beforeAll(async () => {
  anvil = await startAnvil({
    port: await getFreePort(),
    chainId: profiles.local.chainId,
    blockTime: BSC_BLOCK_SECONDS,
    stateFile: null,
  });
  client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 }) as PublicClient;
  await rpc("anvil_setCode", [MULTICALL3_ADDRESS, Multicall3Artifact.deployedBytecode]);
  await rpc("anvil_setBalance", [funder.address, `0x${parseEther("1000").toString(16)}`]);
  dataDir = mkdtempSync(path.join(tmpdir(), "lb-disperse-crash-"));
  port = await getFreePort();
  // On the Postgres at DATABASE_URL when it is set (a fresh database), else the embedded one.
  if (process.env.DATABASE_URL) postgres = await createPostgresDatabase(process.env.DATABASE_URL);
  server = new ServerProcess({
    CHAIN: "local",
    RPC_URL: anvil.rpcUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    MASTER_KEY: masterKey,
    RATE_LIMIT_PER_MINUTE: "1000000",
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  });
  await start();
});

afterAll(async () => {
  await server?.crash();
  await anvil?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  await postgres?.drop();
});

describe("a dispersal across server crashes", () => {
  it("finishes every dispersal exactly after SIGKILLs at each step kind and at 6 random moments", async () => {
    const wallets = [fresh(), fresh(), fresh()];
    const amounts = ["0.011", "0.022", "0.033"];
    const created = await api("POST", "/api/wallets/disperse", {
      wallets,
      amounts,
      antiBubblemaps: true,
    });
    expect(created.success, created.error).toBe(true);
    const receiver = created.receiver;

    // 1. Right after the receiver's key was created and shown.
    await crash();
    await start();
    expect((await status(receiver)).status).toBe("pending");
    const paid = parseEther(created.amount);
    await fund(receiver, paid);

    // 2. As soon as the funding is seen.
    await waitFor(async () => (await status(receiver)).status !== "pending", "funding seen");
    await crash();
    await start();

    // 3. Mid-hop: some chain between its first and last hop.
    await waitFor(
      async () => (await status(receiver)).chains.some((c) => c.currentHop > 0 && c.currentHop < 9),
      "a chain mid-hop",
    );
    await crash();
    await start();

    // 4. Random moments, over this dispersal and a few more created along the way.
    const others: Array<{ receiver: string; wallets: string[]; amounts: string[]; paid: bigint }> =
      [];
    for (let i = 0; i < RANDOM_CRASHES; i++) {
      // Two more dispersals along the way: one through anti-bubblemaps chains, one direct.
      if (i % 3 === 0) {
        const more = Array.from({ length: 4 }, fresh);
        const moreAmounts = more.map((_, j) => `0.00${j + 1}${i}`);
        const next = await api("POST", "/api/wallets/disperse", {
          wallets: more,
          amounts: moreAmounts,
          antiBubblemaps: i % 6 === 0,
        });
        expect(next.success, next.error).toBe(true);
        await fund(next.receiver, parseEther(next.amount));
        others.push({
          receiver: next.receiver,
          wallets: more,
          amounts: moreAmounts,
          paid: parseEther(next.amount),
        });
      }
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 2500)));
      await crash();
      await start();
    }

    const all = [{ receiver, wallets, amounts, paid }, ...others];
    for (const d of all)
      await waitFor(async () => (await status(d.receiver)).status === "completed", "completion");
    await stop();

    const database = await openDatabase({ databaseUrl: postgres?.url, dataDir });
    try {
      for (const d of all) {
        const finals = await Promise.all(
          d.wallets.map((address) => client.getBalance({ address: address as Address })),
        );
        expect(finals).toEqual(d.amounts.map((a) => parseEther(a)));
        const account = await accountFor(database.db, client, d.receiver);
        expect(account.total).toBe(d.paid);
        expect(account.routeLeft).toBe(0n);
        expect(await client.getBalance({ address: d.receiver as Address })).toBe(0n);
        expect(new Set(account.minedHashes).size).toBe(account.minedHashes.length);
        const { transfers } = await readDispersal(database.db, d.receiver);
        expect(transfers.every((t) => t.status === "confirmed")).toBe(true);
      }
    } finally {
      await database.close();
    }
  }, 900_000);
});
