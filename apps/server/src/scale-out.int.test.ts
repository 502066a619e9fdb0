import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import type { Dispersal, Draft } from "@bundler/shared";
import { and, eq } from "drizzle-orm";
import pg from "pg";
import { io as connect, type Socket } from "socket.io-client";
import { type Address, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./db/client.ts";
import { chainTxs, launches, payments, users } from "./db/schema.ts";
import { accountFor, readDispersal } from "./modules/disperse/dispersal-ledger.test-support.ts";
import { anvilAt } from "./test/anvil-at.ts";
import { newTestDatabaseName } from "./test/database-name.ts";
import { draftInput } from "./test/drafts-api.ts";
import { ServerProcess } from "./test/server-process.ts";

/**
 * Three real server processes on one Postgres database and one local chain (the first starts
 * it; the others attach with LOCAL_BUILDER_URL). Launches and dispersals are spread over the
 * three, one process is SIGKILLed in the middle, and the other two finish every piece of work
 * once: no transfer twice, no payment credited twice, no wei unaccounted. Postgres only (PGlite
 * is one process by design).
 */
const baseUrl = process.env.DATABASE_URL;
const FEE = parseEther("0.01");
const DISPERSALS = 20;
const LAUNCHES = 5;

let dataDir: string;
let databaseName: string;
let databaseUrl: string;
let anvilPort: number;
let database: Database;
const servers: ServerProcess[] = [];
const ports: number[] = [];
const sockets: Socket[] = [];

const { client, setBalance, stopped: anvilStopped, url: anvilUrl } = anvilAt(() => anvilPort);

const api = async (n: number, key: string, method: "GET" | "POST", url: string, body?: unknown) => {
  const response = await fetch(`http://127.0.0.1:${ports[n]}${url}`, {
    method,
    headers: { "x-auth-key": key, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const waitFor = async (check: () => Promise<boolean>, what: string, timeoutMs = 240_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}\n${servers.map((s) => s.printed()).join("\n")}`);
};

const funder = privateKeyToAccount(generatePrivateKey());
let funding = Promise.resolve();
/** Plain transfers from one outside wallet, one at a time (one nonce sequence). */
const pay = (to: string, value: bigint) => {
  const next = funding.then(async () => {
    const wallet = createWalletClient({
      account: funder,
      transport: http(anvilUrl()),
    });
    const hash = await wallet.sendTransaction({ chain: null, to: to as Address, value });
    await client()
      .waitForTransactionReceipt({ hash, pollingInterval: 200, timeout: 60_000 })
      .catch(async (error: Error) => {
        const head = await client().getBlockNumber();
        throw new Error(
          `${error.message} (head ${head})\n${servers.map((s) => s.printed()).join("\n")}`,
        );
      });
  });
  funding = next.catch(() => {});
  return next;
};

/** A socket of `key` on process `n`, collecting that user's terminal lines. */
const terminal = (n: number, key: string) =>
  new Promise<string[]>((resolve, reject) => {
    const socket = connect(`http://127.0.0.1:${ports[n]}`, {
      auth: { key },
      transports: ["websocket"],
      reconnection: false,
    });
    sockets.push(socket);
    const lines: string[] = [];
    socket.on(`launch_status_${key}`, (payload: { message: string }) =>
      lines.push(payload.message),
    );
    socket.once("connect", () => resolve(lines));
    socket.once("connect_error", reject);
  });

const draftOf = async (n: number, key: string, id: string) =>
  (await api(n, key, "GET", `/api/draft/${id}`)).body.draft as Draft;

/** A draft created on process `n`, its fee paid, its wallets funded. */
const paidDraft = async (n: number, key: string) => {
  const input = draftInput(2);
  const id = (await api(n, key, "POST", "/api/draft/create", input)).body.draftId as string;
  const address = (await api(n, key, "POST", `/api/draft/${id}/payment`)).body
    .paymentAddress as string;
  await pay(address, FEE);
  await setBalance(input.deployerWallet.address, parseEther("1"));
  for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
  return { id, deployer: input.deployerWallet.address as Address, paymentAddress: address };
};

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  if (!baseUrl) return;
  databaseName = newTestDatabaseName(Date.now(), randomBytes(4).toString("hex"));
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();

  dataDir = mkdtempSync(path.join(tmpdir(), "lb-scale-out-"));
  anvilPort = await getFreePort();
  const shared = {
    CHAIN: "local",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    HOST: "127.0.0.1",
    MASTER_KEY: randomBytes(32).toString("hex"),
    RATE_LIMIT_PER_MINUTE: "1000000",
    LAUNCH_FEE_BNB: "0.01",
    JOB_POLL_SECONDS: "0.5",
  };
  for (let n = 0; n < 3; n++) ports.push(await getFreePort());
  const first = new ServerProcess({
    ...shared,
    PORT: String(ports[0]),
    ANVIL_PORT: String(anvilPort),
  });
  await first.start();
  servers.push(first);
  const builderUrl = /builder (http:\/\/\S+)/.exec(first.printed())?.[1];
  if (!builderUrl) throw new Error(`no builder URL in the banner:\n${first.printed()}`);
  for (const n of [1, 2]) {
    const other = new ServerProcess({
      ...shared,
      PORT: String(ports[n]),
      LOCAL_BUILDER_URL: builderUrl,
    });
    await other.start();
    servers.push(other);
  }
  database = await openDatabase({ databaseUrl, dataDir: null });
  await setBalance(funder.address, parseEther("1000"));
}, 240_000);

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await database?.close();
  // The first process owns the chain: the others go first.
  for (const server of [...servers].reverse()) await server.crash().catch(() => {});
  if (anvilPort) await anvilStopped().catch(() => {});
  if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
  if (baseUrl && databaseName) {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
  }
});

describe.skipIf(!baseUrl)("three server processes on one Postgres", () => {
  it("refuses a deactivated key in every process within a second", async () => {
    const key = (
      await api(0, "", "POST", "/api/auth/key/generate-free", { deviceId: "scale-out-device-1" })
    ).body.key as string;
    for (const n of [0, 1, 2])
      expect((await api(n, key, "POST", "/api/auth/key/validate", { key })).status).toBe(200);
    const [user] = await database.db.select().from(users).where(eq(users.role, "user"));
    await database.db
      .update(users)
      .set({ isActive: false })
      .where(eq(users.id, user?.id ?? ""));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const n of [0, 1, 2])
      expect((await api(n, key, "POST", "/api/auth/key/validate", { key })).status).toBe(401);
  });

  it("tells a launch's owner every line on every process, whichever process ran it", async () => {
    const key = servers[0]?.key as string;
    const [other] = await Promise.all([
      api(1, "", "POST", "/api/auth/key/generate-free", { deviceId: "scale-out-device-2" }),
    ]);
    const otherKey = other?.body.key as string;
    const seen = await Promise.all([0, 1, 2].map((n) => terminal(n, key)));
    const stranger = await terminal(1, otherKey);
    const draft = await paidDraft(1, key);
    await waitFor(async () => (await draftOf(2, key, draft.id)).status === "paid", "the fee");
    expect((await api(2, key, "POST", `/api/draft/${draft.id}/execute`)).status).toBe(200);
    await waitFor(async () => (await draftOf(0, key, draft.id)).status === "executed", "launch");
    await waitFor(
      async () => seen.every((lines) => lines.some((l) => /^SUCCESS \w+ launched/.test(l))),
      "the SUCCESS line on every process",
      10_000,
    );
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
    expect(stranger).toEqual([]);
  });

  it("finishes every launch and dispersal once although one process is killed in the middle", async () => {
    const key = servers[0]?.key as string;
    const drafts = await Promise.all(
      Array.from({ length: LAUNCHES }, (_, i) => paidDraft(i % 3, key)),
    );
    const planned: Array<{
      owner: string;
      receiver: string;
      wallets: string[];
      amounts: string[];
      paid: bigint;
    }> = [];
    // A key may keep 5 dispersals in progress: four users share the 20.
    const owners: string[] = [];
    for (let u = 0; u < DISPERSALS / 5; u++)
      owners.push(
        (
          await api(u % 3, "", "POST", "/api/auth/key/generate-free", {
            deviceId: `scale-out-disperser-${u}`,
          })
        ).body.key as string,
      );
    for (let i = 0; i < DISPERSALS; i++) {
      const wallets = [fresh(), fresh(), fresh()];
      const amounts = wallets.map((_, j) => `0.00${j + 1}${i + 1}`);
      const created = (
        await api(i % 3, owners[i % owners.length] as string, "POST", "/api/wallets/disperse", {
          wallets,
          amounts,
          antiBubblemaps: i % 2 === 0,
        })
      ).body as unknown as Dispersal & { success: boolean; error?: string };
      expect(created.success, created.error).toBe(true);
      planned.push({
        owner: owners[i % owners.length] as string,
        receiver: created.receiver,
        wallets,
        amounts,
        paid: parseEther(created.amount),
      });
    }
    for (const d of drafts)
      await waitFor(async () => (await draftOf(0, key, d.id)).status === "paid", "a fee");
    for (const [i, d] of drafts.entries())
      expect((await api(i % 3, key, "POST", `/api/draft/${d.id}/execute`)).status).toBe(200);
    for (const d of planned) await pay(d.receiver, d.paid);

    // The third process dies with launches, dispersal steps and per-block passes in its hands.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await servers[2]?.crash();

    for (const d of drafts)
      await waitFor(async () => {
        const draft = await draftOf(0, key, d.id);
        // A launch killed before its bundle went out is released: it is executed again.
        if (draft.status === "paid") await api(1, key, "POST", `/api/draft/${d.id}/execute`);
        return draft.status === "executed";
      }, "every launch");
    for (const d of planned)
      await waitFor(
        async () =>
          (await api(0, d.owner, "GET", `/api/wallets/disperse/status?dispersalId=${d.receiver}`))
            .body.status === "completed",
        "every dispersal",
      );

    // Each launch once: one create from its deployer, one launch row, one credited payment
    // whose fee was swept once, to the wei.
    for (const d of drafts) {
      // The create and the builder's tip, both from the deployer, in the one bundle.
      expect(await client().getTransactionCount({ address: d.deployer })).toBe(2);
      expect(
        await database.db.select().from(launches).where(eq(launches.draftId, d.id)),
      ).toHaveLength(1);
      const [payment] = await database.db.select().from(payments).where(eq(payments.draftId, d.id));
      expect(payment?.status).toBe("paid");
      const sweeps = await database.db
        .select()
        .from(chainTxs)
        .where(and(eq(chainTxs.purpose, "payment-sweep"), eq(chainTxs.status, "mined")));
      const mine = sweeps.filter((t) => t.from.toLowerCase() === d.paymentAddress.toLowerCase());
      expect(mine).toHaveLength(1);
      const swept = mine[0];
      const left = await client().getBalance({ address: d.paymentAddress as Address });
      expect(BigInt(swept?.value ?? 0) + BigInt(swept?.fee ?? 0) + left).toBe(FEE);
    }
    // Each dispersal: every destination got its amount, every planned transfer is on chain
    // once, and what was paid in equals what was delivered, spent on gas and sent back.
    for (const d of planned) {
      const finals = await Promise.all(
        d.wallets.map((address) => client().getBalance({ address: address as Address })),
      );
      expect(finals).toEqual(d.amounts.map((a) => parseEther(a)));
      const account = await accountFor(database.db, client(), d.receiver);
      expect(account.total).toBe(d.paid);
      expect(account.routeLeft).toBe(0n);
      expect(new Set(account.minedHashes).size).toBe(account.minedHashes.length);
      const { transfers } = await readDispersal(database.db, d.receiver);
      expect(transfers.every((t) => t.status === "confirmed")).toBe(true);
    }
  }, 900_000);
});
