import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import type { Draft } from "@bundler/shared";
import { type Address, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAt } from "../../test/anvil-at.ts";
import { draftInput } from "../../test/drafts-api.ts";
import { ServerProcess } from "../../test/server-process.ts";

/**
 * The real server, with its own local chain, killed (SIGKILL, at failpoints) at the moments
 * that used to spend money twice, then started again: the launch and the refund each happen
 * exactly once, and a launch that did not land leaves its draft paid.
 */
let dataDir: string;
let port: number;
let anvilPort: number;
let server: ServerProcess;
const FEE = parseEther("0.01");

const { client, setBalance, stopped: anvilStopped, url: anvilUrl } = anvilAt(() => anvilPort);

/** Starts the server on the data dir (its chain on a fresh port: the last one may linger). */
const start = async (failpoints?: string) => {
  anvilPort = await getFreePort();
  await server.start({
    ANVIL_PORT: String(anvilPort),
    ...(failpoints ? { FAILPOINTS: failpoints } : {}),
  });
};

const api = async (method: "GET" | "POST", url: string, body?: unknown) => {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { "x-auth-key": server.key, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const draftOf = async (id: string) => (await api("GET", `/api/draft/${id}`)).body.draft as Draft;

const waitFor = async (check: () => Promise<boolean>, what: string, timeoutMs = 90_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}\n${server.printed()}`);
};

const pay = async (to: string, value: bigint) => {
  const account = privateKeyToAccount(generatePrivateKey());
  await setBalance(account.address, parseEther("1"));
  const wallet = createWalletClient({ account, transport: http(anvilUrl()) });
  const hash = await wallet.sendTransaction({ chain: null, to: to as Address, value });
  await client().waitForTransactionReceipt({ hash, pollingInterval: 200 });
  return account.address;
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "lb-launch-crash-"));
  port = await getFreePort();
  server = new ServerProcess({
    CHAIN: "local",
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    MASTER_KEY: randomBytes(32).toString("hex"),
    RATE_LIMIT_PER_MINUTE: "1000000",
    LAUNCH_FEE_BNB: "0.01",
  });
  await start();
});

afterAll(async () => {
  await server?.crash();
  if (anvilPort) await anvilStopped().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
});

/** A draft whose fee is paid and whose wallets hold enough to launch. */
const readyDraft = async () => {
  const input = draftInput(2);
  const id = (await api("POST", "/api/draft/create", input)).body.draftId as string;
  const address = (await api("POST", `/api/draft/${id}/payment`)).body.paymentAddress as string;
  await pay(address, FEE);
  await waitFor(async () => (await draftOf(id)).status === "paid", "the fee to be credited");
  await setBalance(input.deployerWallet.address, parseEther("1"));
  for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
  return { id, deployer: input.deployerWallet.address };
};

describe("a server killed in the middle of a launch or a refund", () => {
  it("leaves a launch killed before its bundle went out paid, and one killed after it landed executed", async () => {
    const unsent = await readyDraft();
    await server.stop();
    await start("launch.recorded");
    expect((await api("POST", `/api/draft/${unsent.id}/execute`)).status).toBe(200);
    expect(await server.exited()).toBe("SIGKILL");
    await start();
    await waitFor(async () => (await draftOf(unsent.id)).status === "paid", "the draft released");
    expect(await client().getTransactionCount({ address: unsent.deployer })).toBe(0);

    const landed = await readyDraft();
    await server.stop();
    await start("launch.landed");
    expect((await api("POST", `/api/draft/${landed.id}/execute`)).status).toBe(200);
    expect(await server.exited()).toBe("SIGKILL");
    await start();
    await waitFor(
      async () => (await draftOf(landed.id)).status === "executed",
      "the launch recorded",
    );
    const token = (await draftOf(landed.id)).launch?.tokenAddress as Address;
    expect(await client().getCode({ address: token })).not.toBe("0x");
    expect((await api("POST", `/api/draft/${landed.id}/execute`)).status).toBe(409);

    // The draft released above launches once, now that nothing stops it.
    expect((await api("POST", `/api/draft/${unsent.id}/execute`)).status).toBe(200);
    await waitFor(async () => (await draftOf(unsent.id)).status === "executed", "the relaunch");
  }, 300_000);

  it("sends a refund recorded just before the kill once, after the restart", async () => {
    const input = draftInput(1);
    const id = (await api("POST", "/api/draft/create", input)).body.draftId as string;
    const address = (await api("POST", `/api/draft/${id}/payment`)).body.paymentAddress as string;
    expect((await api("POST", `/api/draft/${id}/payment/cancel`)).status).toBe(200);
    await server.stop();
    await start("tx.recorded");
    const payer = await pay(address, FEE);
    expect(await server.exited()).toBe("SIGKILL");
    await start();
    await waitFor(
      async () => (await draftOf(id)).refunds.some((r) => r.status === "sent"),
      "the refund mined",
    );
    const before = await client().getBlockNumber();
    await waitFor(async () => (await client().getBlockNumber()) > before + 3n, "a few blocks");
    expect(await client().getTransactionCount({ address: address as Address })).toBe(1);
    const refunds = (await draftOf(id)).refunds;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.to).toBe(payer);
  }, 300_000);
});
