import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import type { Draft } from "@bundler/shared";
import { type Address, createWalletClient, http, keccak256, parseEther } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { anvilAt } from "./anvil-at.ts";
import { createPostgresDatabase } from "./database.ts";
import { draftInput } from "./drafts-api.ts";
import { ServerProcess } from "./server-process.ts";
import { fromServerTemplate } from "./server-template.ts";

/**
 * BSC's block rhythm (a block every 0.45 s since its Maxwell upgrade), for crash tests: their
 * work waits for blocks (bundles landing, transfers two blocks deep) at the pace it will on
 * mainnet, not at the local profile's default of one a second.
 */
export const BSC_BLOCK_SECONDS = 0.45;

/**
 * The real server with its own local chain in a temporary data dir, for crash tests: started
 * (optionally with FAILPOINTS that SIGKILL it), called as its superadmin, paid from fresh
 * accounts, and removed with its chain at the end. On the embedded database, or on a fresh
 * database of the Postgres at `postgres` (dropped by `remove`).
 */
export const crashServer = (
  name: string,
  givenEnv: Record<string, string> = {},
  { postgres }: { postgres?: string | undefined } = {},
) => {
  let env = givenEnv;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let dataDir = "";
  let port = 0;
  let anvilPort = 0;
  let builderPort = 0;
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
    /**
     * The dev builder's URL (it moves at every start, as the chain does): what an RPC in front
     * of the server's chain (LOCAL_RPC_URL, `startUnreliableRpc`) passes calls on to.
     */
    builderUrl: () => `http://127.0.0.1:${builderPort}`,
    /** Every contract address the server deployed on its chain (its recorded deployment). */
    contracts(): Address[] {
      const deployment = readFileSync(path.join(dataDir, "chain", "deployment.json"), "utf8");
      return [...new Set(deployment.match(/0x[0-9a-fA-F]{40}/g) ?? [])] as Address[];
    },
    /**
     * Starts the server (its chain and builder on fresh ports: the last ones may linger). Its first start
     * begins from a copy of the template data dir (server-template.ts) unless `env` names a
     * MASTER_KEY, which a test gives to watch a real first start.
     */
    async start(failpoints?: string): Promise<void> {
      if (!server) {
        if (postgres) {
          database = await createPostgresDatabase(postgres);
          env = { ...env, DATABASE_URL: database.url };
        }
        dataDir = mkdtempSync(path.join(tmpdir(), `lb-${name}-`));
        port = await getFreePort();
        const copied = env.MASTER_KEY
          ? null
          : await fromServerTemplate(dataDir, {
              env,
              database: env.DATABASE_URL ? "postgres" : "pglite",
            });
        server = new ServerProcess({
          CHAIN: "local",
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: "127.0.0.1",
          RATE_LIMIT_PER_MINUTE: "1000000",
          ...env,
        });
        if (copied) server.key = copied;
      }
      anvilPort = await getFreePort();
      builderPort = await getFreePort();
      await server.start({
        ANVIL_PORT: String(anvilPort),
        LOCAL_BUILDER_PORT: String(builderPort),
        ...(failpoints ? { FAILPOINTS: failpoints } : {}),
      });
    },
    /**
     * A call with the superadmin's key, another user's (`key`), or as a visitor with none
     * (`anonymous`).
     */
    async api(
      method: "GET" | "POST",
      url: string,
      body?: unknown,
      { anonymous = false, key }: { anonymous?: boolean; key?: string } = {},
    ) {
      const response = await fetch(`http://127.0.0.1:${port}${url}`, {
        method,
        headers: {
          ...(anonymous ? {} : { "x-auth-key": key ?? running().key }),
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
    /**
     * A payment from `from` to `to`, signed once, now: `send` broadcasts that one transaction
     * and waits until it is mined, and may be called again after a kill cut it off (the chain
     * lives in the server's process group here, unlike BSC): it sends the same transaction
     * again, never a second payment, as a wallet that paid does not pay twice.
     */
    async signedPayment(to: string, value: bigint, from: PrivateKeyAccount) {
      const client = chain.client();
      const raw = await from.signTransaction({
        chainId: await client.getChainId(),
        nonce: await client.getTransactionCount({ address: from.address, blockTag: "pending" }),
        to: to as Address,
        value,
        gas: 21_000n,
        gasPrice: await client.getGasPrice(),
        type: "legacy",
      });
      const hash = keccak256(raw);
      return {
        hash,
        send: async (): Promise<void> => {
          await chain
            .client()
            .request({ method: "eth_sendRawTransaction", params: [raw] })
            .catch((error: Error) => {
              // Already in the pool or already mined: the same payment, sent before the kill.
              if (!/already known|nonce too low|already imported/i.test(error.message)) throw error;
            });
          await chain.client().waitForTransactionReceipt({ hash, pollingInterval: 200 });
        },
      };
    },
    /** Kills the server, waits for its chain to stop writing, removes the data dir. */
    async remove(): Promise<void> {
      await server?.crash();
      if (anvilPort) await chain.stopped().catch(() => {});
      if (dataDir)
        rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
      await database?.drop();
    },
  };
};

/**
 * A token launched through the crashed server itself, as a user does: a draft of `wallets`
 * wallets, its launch fee `fee` paid, its deployer and wallets funded (1 and 0.2 BNB), executed
 * and waited for. Answers the token and what the draft was saved with (keys included). The
 * superadmin launches it, or the user whose key is `as`.
 */
export const launchThrough = async (
  crashed: ReturnType<typeof crashServer>,
  wallets: number,
  fee: bigint,
  { as }: { as?: string } = {},
): Promise<{ token: Address; input: ReturnType<typeof draftInput> }> => {
  const { pay, waitFor, setBalance } = crashed;
  const api: typeof crashed.api = (method, url, body, options = {}) =>
    crashed.api(method, url, body, { ...(as ? { key: as } : {}), ...options });
  const input = draftInput(wallets);
  const id = (await api("POST", "/api/draft/create", input)).body.draftId as string;
  const address = (await api("POST", `/api/draft/${id}/payment`)).body.paymentAddress as string;
  await pay(address, fee);
  const draftOf = async () => (await api("GET", `/api/draft/${id}`)).body.draft as Draft;
  await waitFor(async () => (await draftOf()).status === "paid", "the fee to be credited");
  await setBalance(input.deployerWallet.address, parseEther("1"));
  for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
  const executed = await api("POST", `/api/draft/${id}/execute`);
  if (executed.status !== 200) throw new Error(`execute: ${JSON.stringify(executed.body)}`);
  await waitFor(async () => (await draftOf()).status === "executed", "the launch");
  return { token: (await draftOf()).launch?.tokenAddress as Address, input };
};
