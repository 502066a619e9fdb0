import { existsSync } from "node:fs";
import { type DeploymentConfig, ERROR_CATALOGUE, ROUTES, type RouteDef } from "@bundler/shared";
import cors from "@fastify/cors";
import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";
import helmet from "helmet";
import { type Address, type Hex, parseEther } from "viem";
import type { Database } from "./db/client.ts";
import { registerAccessControl } from "./lib/access.ts";
import type { ChainContext } from "./lib/chain-context.ts";
import { answerError, fail } from "./lib/error-answer.ts";
import { JobEngine } from "./lib/jobs.ts";
import { registerNoStore } from "./lib/no-store.ts";
import { requestValidatorCompiler } from "./lib/parse-request.ts";
import { DEFAULT_PRICING, type Pricing, publicPricing } from "./lib/pricing.ts";
import { MOVES_MONEY, postgresHitCounter, rateLimitStore } from "./lib/rate-limits.ts";
import { ReadQueue, registerReadQueue } from "./lib/read-queue.ts";
import { Realtime } from "./lib/realtime.ts";
import { RuntimeFigures, registerRuntimeFigures } from "./lib/runtime-figures.ts";
import { openPostgresSocketAdapter } from "./lib/socket-adapter.ts";
import { adminRoutes } from "./modules/admin/admin.routes.ts";
import { runtimeRoutes } from "./modules/admin/runtime.routes.ts";
import { AccountRepository } from "./modules/auth/account.repository.ts";
import { accountRoutes } from "./modules/auth/account.routes.ts";
import { AccountService } from "./modules/auth/account.service.ts";
import { AUTH_KEYS_CHANNEL, KeyCache } from "./modules/auth/auth.cache.ts";
import { AuthRepository } from "./modules/auth/auth.repository.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { AuthService } from "./modules/auth/auth.service.ts";
import { autosellRoutes } from "./modules/autosell/autosell.routes.ts";
import { buildersRoutes } from "./modules/builders/builders.routes.ts";
import { bumperRoutes } from "./modules/bumper/bumper.routes.ts";
import { bundlesRoutes } from "./modules/bundles/bundles.routes.ts";
import { faucetRoutes } from "./modules/dev/faucet.routes.ts";
import { FaucetService } from "./modules/dev/faucet.service.ts";
import { disperseRoutes } from "./modules/disperse/disperse.routes.ts";
import { draftsRoutes } from "./modules/drafts/drafts.routes.ts";
import { launchRoutes } from "./modules/launch/launch.routes.ts";
import { metaRoutes } from "./modules/meta/meta.routes.ts";
import { NewsRepository } from "./modules/meta/news.repository.ts";
import { keyPaymentRoutes } from "./modules/payments/key-payment.routes.ts";
import { pnlRoutes } from "./modules/pnl/pnl.routes.ts";
import { preflightRoutes } from "./modules/preflight/preflight.routes.ts";
import { priceRoutes } from "./modules/price/price.routes.ts";
import { referralRoutes } from "./modules/referral/referral.routes.ts";
import type { TxManagerOptions } from "./modules/transactions/tx-manager.ts";
import { txRoutes } from "./modules/tx/tx.routes.ts";
import { TxService } from "./modules/tx/tx.service.ts";
import { walletsRoutes } from "./modules/wallets/wallets.routes.ts";
import { type BumperOptions, createServices, type Services, workServices } from "./services.ts";

/** The local profile's treasury when TREASURY_ADDRESS is unset: anvil dev account 2. */
export const DEV_TREASURY_ADDRESS: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

export interface AppOptions {
  database: Database;
  /** The deployment part of `GET /api/config` (the pricing part comes from `pricing`). */
  publicConfig: DeploymentConfig;
  /** Key price, referral discount and reward, USD (default 4, 0.6, 0.4). */
  pricing?: Pricing | undefined;
  allowedOrigins: string[];
  rateLimitPerMinute: number;
  /** Reads (GETs and read-only POSTs) that run at once here; more wait in line (default 8). */
  concurrentReads?: number;
  freeKeyLimitPerHour: number;
  /** Free access keys one client address may get in 24 hours (default 20). */
  freeKeysPerIpPerDay?: number | undefined;
  bodyLimitBytes: number;
  /** The built web app, served on the same origin when present. */
  webDist?: string | undefined;
  logLevel?: string;
  currentBlock?: () => number | null;
  /** The local profile's faucet route (test BNB from an anvil development account). */
  faucet?: boolean;
  /** Faucet requests one address may make per minute (default FAUCET_PER_MINUTE, 30). */
  faucetPerMinute?: number | undefined;
  /** Encrypts every private key at rest (main.ts loads it; tests pass one). */
  masterKey: Buffer;
  /** The chain the launch routes use; without it they answer 503 "chain unavailable". */
  chain?: ChainContext | undefined;
  /** The launch fee, BNB (default "0.5"). */
  launchFeeBnb?: string | undefined;
  /** BNB_USD_PRICE: the BNB price where the profile has no price feed (the local chain). */
  bnbUsdPrice?: number | undefined;
  /** How long a started payment stays open, seconds (default 600). */
  paymentWindowSeconds?: number | undefined;
  /** Where received launch fees are swept. */
  treasuryAddress?: Address | undefined;
  /** The treasury's key, which pays referral claims; without it completing a claim is refused. */
  treasuryKey?: Hex | undefined;
  /** Key purchases one client address may start per hour (default 10). */
  keyPaymentLimitPerHour?: number | undefined;
  /** Socket handshakes one address may make per window (default 60 per minute). */
  socketHandshakes?: { max: number; windowMs: number } | undefined;
  /**
   * TRUST_PROXY: the proxies (addresses, CIDR ranges) whose `X-Forwarded-For` names the client,
   * for the rate limits, the free keys per address and the socket handshake limit. None by default.
   */
  trustProxy?: string[] | undefined;
  /** How long a dispersal waits for its funding, seconds (default 1800). */
  dispersalWindowSeconds?: number | undefined;
  /** The bumper's minute (tests shorten it) and each bump's builder tip. */
  bumper?: BumperOptions | undefined;
  /** What each sell bundle pays its builder, wei (default 0.0005 BNB). */
  sellTip?: bigint | undefined;
  /** LOGS_MAX_BLOCK_RANGE: the most blocks one `eth_getLogs` spans (default 5,000). */
  logsMaxBlockRange?: number | undefined;
  /** The transaction manager's timings (tests shorten them). */
  transactions?: TxManagerOptions | undefined;
  /** How often an idle job worker asks for work, seconds (default 1). */
  jobPollingSeconds?: number | undefined;
}

/**
 * The HTTP API, every service behind it, and this process's job workers. The block watcher
 * (main.ts) announces blocks to `jobs`; the per-block work (`paymentWatcher`, `disperseEngine`,
 * `transactions`' reconcile) runs as jobs, in whichever process gets them (tests also call
 * their `tick` directly). `transactions` is the one transaction manager every outgoing
 * transaction goes through.
 */
export interface App extends Services {
  server: FastifyInstance;
  jobs: JobEngine;
  realtime: Realtime;
  auth: AuthService;
  news: NewsRepository;
  /** Every `/api/` route this server registered (HEAD twins left out): ROUTES must list them. */
  apiRoutes: readonly RegisteredRoute[];
}

export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteDef["access"];
}

/** Builds the HTTP API, the realtime server and the static web app, without listening. */
export const buildApp = async (options: AppOptions): Promise<App> => {
  const server = Fastify({
    logger: {
      level: options.logLevel ?? "info",
      redact: ["req.headers['x-auth-key']", "req.headers.authorization"],
    },
    bodyLimit: options.bodyLimitBytes,
    trustProxy: options.trustProxy?.length ? options.trustProxy : false,
    logController: new LogController({ disableRequestLogging: true }),
  });
  const apiRoutes: RegisteredRoute[] = [];
  server.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/")) return;
    for (const method of [route.method].flat()) {
      if (method === "HEAD") continue;
      apiRoutes.push({ method, url: route.url, access: route.config?.access ?? "user" });
    }
  });
  // A bad request is a sentence with the field's label and row (lib/parse-request.ts).
  server.setValidatorCompiler(requestValidatorCompiler);
  server.setSerializerCompiler(serializerCompiler);

  const keys = new KeyCache();
  const auth = new AuthService(
    new AuthRepository(options.database.db),
    options.freeKeysPerIpPerDay,
    keys,
  );
  // Checking a key reads the cache; the `users` triggers tell every process what to forget,
  // and which of its sockets to check again (a key turned off drops its connections).
  let keyChanged: (digest: string) => void = () => {};
  const stopListening = await options.database.listen(AUTH_KEYS_CHANNEL, {
    message: (payload) => {
      keys.message(payload);
      keyChanged(payload);
    },
    listening: () => {
      keys.listening();
      // Changes made while not listening were missed: every connection is checked again.
      keyChanged("*");
    },
    lost: () => keys.lost(),
  });
  server.addHook("onClose", stopListening);
  const news = new NewsRepository(options.database.db);
  // On Postgres every process may hold some of a user's connections: rooms cross processes.
  const shared = options.database.url
    ? await openPostgresSocketAdapter(options.database.url, (line) => server.log.warn(line))
    : undefined;
  // On Postgres the rate limits and the handshake limit count in the database, for every
  // process together; the embedded database's one process counts in memory.
  const hits =
    options.database.kind === "postgres" ? postgresHitCounter(options.database.db) : undefined;
  if (hits) server.addHook("onClose", async () => hits.close());
  const realtime = new Realtime(server.server, auth, {
    allowedOrigins: options.allowedOrigins,
    handshakeLimit: options.socketHandshakes,
    hits,
    trustProxy: options.trustProxy,
    shared,
    log: server.log,
  });
  keyChanged = (digest) => void realtime.keyChanged(digest);
  server.addHook("preClose", async () => realtime.disconnectAll());
  server.addHook("onClose", () => realtime.close());

  // Built once: @fastify/helmet built helmet again (re-reading the CSP) for every request.
  const secureHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // react-hot-toast injects its keyframes as a <style> element.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        // CSP3 'self' also matches ws:/wss: on the same host and port: the socket.
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
  });
  server.addHook("onRequest", (request, reply, done) =>
    secureHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
  await server.register(cors, { origin: options.allowedOrigins, credentials: true });
  // The limit guards the API. The web app's files (one page load fetches dozens) and its
  // paths are static and cheap; counting them would lock a user out of the API for browsing.
  // Such routes opt out when they are added (this hook runs before the limiter's own), which
  // costs nothing per request, unlike an allow-list the limiter would ask every time.
  server.addHook("onRoute", (route) => {
    if (!isApiPath(route.url)) route.config = { ...route.config, rateLimit: false };
  });
  await server.register(rateLimit, {
    max: options.rateLimitPerMinute,
    timeWindow: "1 minute",
    // A count the database could not take lets a read through and refuses a call that moves
    // money (the store decides, from the key's mark).
    ...(hits
      ? {
          store: rateLimitStore(hits),
          keyGenerator: (request: FastifyRequest) =>
            normalizeIP(request.ip) +
            (MONEY_ROUTES.has(`${request.method} ${request.routeOptions.url}`) ? MOVES_MONEY : ""),
        }
      : {}),
    // A refusal says when to retry (429 with retry-after and the limit); an allowed request
    // carries no rate-limit headers, which nothing reads.
    addHeadersOnExceeding: {
      "x-ratelimit-limit": false,
      "x-ratelimit-remaining": false,
      "x-ratelimit-reset": false,
    },
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      success: false,
      error: ERROR_CATALOGUE.rateLimit.title,
    }),
  });

  server.setErrorHandler(answerError);
  const runtime = new RuntimeFigures();
  registerRuntimeFigures(server, runtime);

  const launchFee = parseEther(options.launchFeeBnb ?? "0.5");
  const pricing = options.pricing ?? DEFAULT_PRICING;
  registerReadQueue(
    server,
    new ReadQueue(options.concurrentReads ?? DEFAULT_CONCURRENT_READS),
    isRead,
  );
  registerAccessControl(server, auth);
  registerNoStore(server);
  await server.register(
    metaRoutes({
      news,
      publicConfig: {
        ...options.publicConfig,
        ...publicPricing(pricing, launchFee),
        // Names and caps only: a builder's endpoint and key stay on the server.
        builders: (options.chain?.builders ?? []).map((builder) => ({
          name: builder.name,
          maxTxs: builder.maxTxs,
          signed: builder.signer !== undefined,
        })),
      },
      currentBlock: options.currentBlock ?? (() => null),
    }),
  );

  const jobs = await JobEngine.start(options.database.jobStore, {
    log: (message) => server.log.warn(message),
    pollingIntervalSeconds: options.jobPollingSeconds,
  });
  const services = createServices({
    db: options.database.db,
    jobs,
    tryLock: (key) => options.database.tryLock(key),
    masterKey: options.masterKey,
    chain: options.chain,
    launchFee,
    paymentWindowSeconds: options.paymentWindowSeconds,
    dispersalWindowSeconds: options.dispersalWindowSeconds,
    bumper: options.bumper,
    sellTip: options.sellTip,
    logsMaxBlockRange: options.logsMaxBlockRange,
    treasury: options.treasuryAddress ?? DEV_TREASURY_ADDRESS,
    treasuryKey: options.treasuryKey,
    pricing,
    bnbUsdPrice: options.bnbUsdPrice,
    auth,
    transactions: options.transactions,
    emit: (userId, kind, message) => void realtime.emitToUser(userId, kind, { message }),
    log: (message) => server.log.warn(message),
  });
  const {
    wallets,
    drafts,
    payments,
    plans,
    launches,
    dispersals,
    disperseEngine,
    walletManager,
    bumpers,
    bumperEngine,
  } = services;
  await workServices(jobs, services);
  server.addHook("onClose", async () => {
    launches.stop();
    await disperseEngine?.stop();
    await bumperEngine?.stop();
    await jobs.stop();
  });
  await server.register(authRoutes(auth, options.freeKeyLimitPerHour, services.referrals));
  await server.register(
    keyPaymentRoutes(services.keyPayments, options.keyPaymentLimitPerHour ?? 10),
  );
  await server.register(
    accountRoutes(new AccountService(new AccountRepository(options.database.db), services.vault)),
  );
  await server.register(referralRoutes(services.referrals));
  await server.register(adminRoutes(services.admin, services.adminActions));
  await server.register(runtimeRoutes(runtime));
  await server.register(preflightRoutes(services.preflight));
  await server.register(buildersRoutes(services.builderSends));
  await server.register(walletsRoutes(wallets));
  await server.register(draftsRoutes(drafts, payments, launches, plans));
  await server.register(launchRoutes(launches, plans));
  await server.register(disperseRoutes(dispersals));
  await server.register(bundlesRoutes(walletManager));
  await server.register(pnlRoutes(services.pnl));
  await server.register(autosellRoutes(services.autosell));
  await server.register(bumperRoutes(bumpers));
  await server.register(txRoutes(new TxService(options.chain, services.transactions)));
  // The local chain's faucet sends through the transaction manager like everything else.
  if (options.faucet)
    await server.register(
      faucetRoutes(new FaucetService(services.transactions), options.faucetPerMinute),
    );
  await server.register(priceRoutes(services.prices));

  const webDist = options.webDist && existsSync(options.webDist) ? options.webDist : undefined;
  if (webDist) await server.register(fastifyStatic, { root: webDist, wildcard: false });
  server.setNotFoundHandler((request, reply) => {
    if (
      isApiPath(request.url) ||
      !webDist ||
      (request.method !== "GET" && request.method !== "HEAD")
    ) {
      return reply.status(404).send(fail("Not found"));
    }
    // The single-page app owns every other path, including its own not-found page.
    return reply.type("text/html").sendFile("index.html");
  });

  return { server, realtime, auth, news, jobs, apiRoutes, ...services };
};

/** Reads that run at once in one process before the rest queue (see ReadQueue). */
const DEFAULT_CONCURRENT_READS = 8;
const POST_READS = new Set(ROUTES.filter((route) => route.reads).map((route) => route.path));
/** "METHOD path" of the routes that move money: their rate limit fails closed. */
const MONEY_ROUTES = new Set(
  ROUTES.filter((route) => route.movesMoney).map((route) => `${route.method} ${route.path}`),
);
const isRead = (method: string, url: string): boolean =>
  isApiPath(url) && (method === "GET" || (method === "POST" && POST_READS.has(url)));

/** Requests for the API (everything else is the web app's files and paths). */
const isApiPath = (url: string): boolean =>
  url === "/api" || url.startsWith("/api/") || url.startsWith("/api?");
