import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import { type Address, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { anvilAt } from "./anvil-at.ts";
import { ServerProcess } from "./server-process.ts";

/**
 * The real server with its own local chain in a temporary data dir, for crash tests: started
 * (optionally with FAILPOINTS that SIGKILL it), called as its superadmin, paid from fresh
 * accounts, and removed with its chain at the end.
 */
export const crashServer = (name: string, env: Record<string, string> = {}) => {
  let dataDir = "";
  let port = 0;
  let anvilPort = 0;
  let server: ServerProcess | undefined;
  const chain = anvilAt(() => anvilPort);
  const running = () => {
    if (!server) throw new Error("the server was never started");
    return server;
  };

  return {
    ...chain,
    get process() {
      return running();
    },
    /** The data dir the server (and its chain) write to. */
    get dataDir() {
      return dataDir;
    },
    /** Every contract address the server deployed on its chain (its recorded deployment). */
    contracts(): Address[] {
      const deployment = readFileSync(path.join(dataDir, "chain", "deployment.json"), "utf8");
      return [...new Set(deployment.match(/0x[0-9a-fA-F]{40}/g) ?? [])] as Address[];
    },
    /** Starts the server (its chain on a fresh port: the last one may linger). */
    async start(failpoints?: string): Promise<void> {
      if (!server) {
        dataDir = mkdtempSync(path.join(tmpdir(), `lb-${name}-`));
        port = await getFreePort();
        server = new ServerProcess({
          CHAIN: "local",
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: "127.0.0.1",
          MASTER_KEY: randomBytes(32).toString("hex"),
          RATE_LIMIT_PER_MINUTE: "1000000",
          ...env,
        });
      }
      anvilPort = await getFreePort();
      await server.start({
        ANVIL_PORT: String(anvilPort),
        ...(failpoints ? { FAILPOINTS: failpoints } : {}),
      });
    },
    async api(method: "GET" | "POST", url: string, body?: unknown) {
      const response = await fetch(`http://127.0.0.1:${port}${url}`, {
        method,
        headers: {
          "x-auth-key": running().key,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (await check().catch(() => false)) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      throw new Error(`timed out waiting for ${what}\n${running().printed()}`);
    },
    /**
     * Sends `value` to `to` from a fresh account (funded with 1 BNB), or from `from` as it is;
     * answers the payer.
     */
    async pay(to: string, value: bigint, from?: PrivateKeyAccount): Promise<Address> {
      const account = from ?? privateKeyToAccount(generatePrivateKey());
      if (!from) await chain.setBalance(account.address, parseEther("1"));
      const wallet = createWalletClient({ account, transport: http(chain.url()) });
      const hash = await wallet.sendTransaction({ chain: null, to: to as Address, value });
      await chain.client().waitForTransactionReceipt({ hash, pollingInterval: 200 });
      return account.address;
    },
    /** Kills the server, waits for its chain to stop writing, removes the data dir. */
    async remove(): Promise<void> {
      await server?.crash();
      if (anvilPort) await chain.stopped().catch(() => {});
      if (dataDir)
        rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
    },
  };
};
