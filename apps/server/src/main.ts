import { mkdirSync } from "node:fs";
import path from "node:path";
import { profiles } from "@bundler/chain";
import { parseEther } from "viem";
import { buildApp, DEV_TREASURY_ADDRESS } from "./app.ts";
import { ConfigError, parseEnv } from "./config/env.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { users, walletKeys } from "./db/schema.ts";
import { watchBlocks } from "./lib/block-watcher.ts";
import { lockDataDir } from "./lib/data-lock.ts";
import { displayUrl } from "./lib/display-url.ts";
import { armFailpointsFromList } from "./lib/failpoints.ts";
import { KeyVault } from "./lib/key-vault.ts";
import { loadMasterKey } from "./lib/master-key.ts";
import { openChain, startsLocalChain } from "./lib/open-chain.ts";
import { loadTreasury, type Treasury } from "./lib/treasury-key.ts";
import { PreflightService, preflightLines } from "./modules/preflight/preflight.service.ts";

/**
 * Whether the database already holds users or wallet keys from an earlier start (embedded or
 * Postgres alike): then a missing local chain state means lost addresses, not a first start.
 */
const remembersChain = async ({ db }: Database): Promise<boolean> => {
  const [user] = await db.select({ id: users.id }).from(users).limit(1);
  if (user) return true;
  const [key] = await db.select({ address: walletKeys.address }).from(walletKeys).limit(1);
  return Boolean(key);
};

const say = (line: string) => process.stdout.write(`${line}\n`);

/** How long a stop waits for requests under way before it closes their connections. */
const SHUTDOWN_GRACE_MS = 10_000;

const main = async () => {
  const startedAt = performance.now();
  const startedAtTime = Date.now();
  const env = parseEnv();
  armFailpointsFromList(env.FAILPOINTS);
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  // The embedded database and a local chain's state belong to one process; otherwise (Postgres,
  // with a remote chain or another process's local chain) any number of processes may start.
  const startsChain = startsLocalChain(env);
  const releaseDataDir =
    env.DATABASE_URL && !startsChain
      ? () => {}
      : lockDataDir(
          dataDir,
          "server starts",
          env.DATABASE_URL
            ? "or set LOCAL_BUILDER_URL to the builder URL it printed, to share its local chain"
            : undefined,
        );
  const profile = profiles[env.CHAIN];

  const masterKey = loadMasterKey({
    masterKey: env.MASTER_KEY,
    masterKeyFile: env.MASTER_KEY_FILE,
    dataDir,
  });
  if (masterKey.created)
    say(
      `Created a new master key at ${masterKey.created} (keep it: it decrypts every stored wallet key).`,
    );

  let treasury: Treasury;
  try {
    treasury = loadTreasury({
      chain: env.CHAIN,
      privateKey: env.TREASURY_PRIVATE_KEY,
      keyFile: env.TREASURY_KEY_FILE,
      address: env.TREASURY_ADDRESS,
      devAddress: DEV_TREASURY_ADDRESS,
    });
  } catch (error) {
    releaseDataDir();
    throw new ConfigError(`invalid configuration: ${(error as Error).message}`);
  }

  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
  const databaseExisted = await remembersChain(database);
  const { chain, localChain, rpcUrl } = await openChain(env, {
    dataDir,
    masterKey: masterKey.key,
    databaseExisted,
    say,
  }).catch(async (error: Error) => {
    await database.close();
    throw error;
  });

  // Off the local chain, money moves for real: the setup proves itself first.
  if (profile.name !== "local") {
    const preflight = await new PreflightService({
      chain,
      db: database.db,
      vault: new KeyVault(database.db, masterKey.key),
      treasury: { address: treasury.address, hasKey: treasury.privateKey !== undefined },
    }).run();
    const lines = preflightLines(preflight.checks.filter((c) => c.status !== "ok"));
    if (!preflight.ready) {
      await database.close();
      releaseDataDir();
      throw new ConfigError(
        `the preflight of ${profile.name} (${displayUrl(rpcUrl)}) failed, nothing was started:\n${lines.join("\n")}\n(npm run preflight prints every check)`,
      );
    }
    if (lines.length > 0) say(`Preflight passed, with warnings:\n${lines.join("\n")}`);
  }

  let watcher: ReturnType<typeof watchBlocks> | undefined;
  const app = await buildApp({
    database,
    publicConfig: {
      chain: profile.name,
      chainId: profile.chainId,
      explorerUrl: profile.explorerUrl,
      faucet: profile.faucet,
      links: { social: env.SOCIAL_URL, group: env.GROUP_URL, docs: env.DOCS_URL },
    },
    allowedOrigins: env.ALLOWED_ORIGINS,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    freeKeyLimitPerHour: env.FREE_KEY_LIMIT_PER_HOUR,
    freeKeysPerIpPerDay: env.FREE_KEYS_PER_IP_PER_DAY,
    socketHandshakes: { max: env.SOCKET_HANDSHAKES_PER_MINUTE, windowMs: 60_000 },
    trustProxy: env.TRUST_PROXY,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    webDist: env.WEB_DIST,
    logLevel: env.LOG_LEVEL,
    currentBlock: () => watcher?.current() ?? null,
    faucet: localChain !== undefined,
    faucetPerMinute: env.FAUCET_PER_MINUTE,
    masterKey: masterKey.key,
    chain,
    launchFeeBnb: env.LAUNCH_FEE_BNB,
    bnbUsdPrice: env.BNB_USD_PRICE,
    paymentWindowSeconds: env.PAYMENT_WINDOW_SECONDS,
    dispersalWindowSeconds: env.DISPERSAL_WINDOW_SECONDS,
    bumper: { minuteMs: env.BUMPER_MINUTE_SECONDS * 1000, tip: parseEther(env.BUMPER_TIP_BNB) },
    sellTip: parseEther(env.SELL_TIP_BNB),
    logsMaxBlockRange: env.LOGS_MAX_BLOCK_RANGE,
    treasuryAddress: treasury.address,
    treasuryKey: treasury.privateKey,
    pricing: {
      price: env.KEY_PRICE_USD,
      referralDiscount: env.REFERRAL_DISCOUNT_USD,
      referralReward: env.REFERRAL_REWARD_USD,
    },
    keyPaymentLimitPerHour: env.KEY_PAYMENT_LIMIT_PER_HOUR,
    jobPollingSeconds: env.JOB_POLL_SECONDS,
  });
  // The embedded database's one process: what the last one was doing when it died is ours now.
  if (database.kind === "pglite") await app.jobs.retryAbandoned(new Date(startedAtTime));
  await app.launches.recover();

  if (profile.name === "local") {
    await app.news.add({
      id: "local-chain",
      content: "You are on the local chain: every BNB here is test BNB from the faucet.",
      label: "LOCAL",
      labelColor: "#f0b90b",
    });
  }
  // Only a laptop gets a key printed on its first start; a real network mints one on purpose.
  const superadminKey = profile.name === "local" ? await app.auth.ensureSuperadmin() : null;
  const needsSuperadmin = !superadminKey && !(await app.auth.hasSuperadmin());

  let stopping = false;
  const stop = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    say(`\n${signal}: stopping...`);
    watcher?.stop();
    // Requests under way when the signal came finish; their kept-alive connections then go
    // idle and are closed as they do (left open they held the close for Fastify's 72 s
    // keep-alive), and whatever is still open after SHUTDOWN_GRACE_MS is cut.
    const http = app.server.server;
    const idle = setInterval(() => http.closeIdleConnections(), 100);
    const cut = setTimeout(() => http.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await app.server.close().catch(() => {});
    clearInterval(idle);
    clearTimeout(cut);
    await database.close().catch(() => {});
    await localChain?.stop();
    releaseDataDir();
    process.exit(code);
  };
  // Without its database the server can do nothing: it stops, and the next start finishes the
  // work under way, as after any crash.
  database.onLost((why) => void stop(`${why}: the database is lost`, 1));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  if (env.STOP_WHEN_STDIN_CLOSES === "1") {
    process.stdin.once("close", () => void stop("the parent's pipe closed"));
    process.stdin.resume();
  }

  await app.server.listen({ host: env.HOST, port: env.PORT });
  // Blocks are only announced: to browsers, and as one job per block for the work that runs
  // on each block, done by whichever process's worker takes it.
  watcher = watchBlocks(rpcUrl, (blockNumber) => {
    app.realtime.broadcastBlock(blockNumber);
    app.jobs
      .announceBlock(blockNumber)
      .catch((error: Error) => app.server.log.warn(`block ${blockNumber}: ${error.message}`));
  });

  const url = `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`;
  const banner = ["", `  Launch bundler is ready at ${url}`];
  if (localChain) {
    const owner = env.LOCAL_BUILDER_URL ? " (another process's)" : "";
    banner.push(
      `  local chain${owner}: launchpad ${localChain.contracts.launchpad}, builder ${localChain.builderUrl}`,
    );
    if (localChain.slowBuilder)
      banner.push(
        `  a second builder, local-slow (takes ${localChain.slowBuilder.maxTxs} transactions, answers after 300 ms): ${localChain.slowBuilder.url}`,
      );
    if (env.LOCAL_RPC_URL)
      banner.push(
        `  reads and transactions through LOCAL_RPC_URL (${displayUrl(env.LOCAL_RPC_URL)})`,
      );
    if (database.kind === "postgres" && !owner)
      banner.push(
        `  more processes on this chain: LOCAL_BUILDER_URL=${localChain.builderUrl} (same DATA_DIR and DATABASE_URL)`,
      );
  }
  banner.push(
    `  chain: ${profile.name} (${displayUrl(localChain?.rpcUrl ?? rpcUrl)})  database: ${database.kind}${database.kind === "pglite" ? ` (${dataDir})` : ""}`,
  );
  if (superadminKey) {
    banner.push("", `  Superadmin access key (shown once, keep it safe): ${superadminKey}`);
  } else if (needsSuperadmin) {
    const first = database.kind === "pglite" ? "stop the server, then " : "";
    banner.push(`  No superadmin key yet: ${first}run \`npm run admin:key -- --role superadmin\`.`);
  }
  banner.push(`  ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  // One write: whoever waits for "is ready at" on a pipe gets the key in the same read.
  say(banner.join("\n"));
};

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Cannot start: ${message}\n`);
  process.exit(1);
});
