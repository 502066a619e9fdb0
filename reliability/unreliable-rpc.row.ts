import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { LOCAL_TIP_ADDRESS } from "../apps/server/src/lib/local-chain.ts";
import { crashServer, launchThrough } from "../apps/server/src/test/crash-server.ts";
import { createPostgresDatabase } from "../apps/server/src/test/database.ts";
import { seeded, seedFrom } from "../apps/server/src/test/seeded.ts";
import { startUnreliableRpc, uniformDelay } from "../apps/server/src/test/unreliable-rpc.ts";
import { outsideBuy, prepareAutosell } from "./crashes/autosell-work.ts";
import { kindsToRun, runTrials, tallyFigures } from "./crashes/trials.ts";
import { FEE, prepare, type Server, type Shared } from "./crashes/work.ts";
import { atMost, type Figure, type Mode, type Row, zero } from "./row.ts";
import { prepareRepeatedSell } from "./unreliable-rpc/work.ts";

const KINDS = [
  "repeated sell",
  "sniper guard on an old token",
  "auto-sell firing",
  "dispersal",
  "claim payout",
  "bump",
] as const;
type Kind = (typeof KINDS)[number];

/** How long each kind of work runs behind the proxy, roughly (ms): a random kill lands within it. */
const SPAN: Record<Kind, number> = {
  "repeated sell": 6000,
  "sniper guard on an old token": 8000,
  "auto-sell firing": 8000,
  dispersal: 20000,
  "claim payout": 8000,
  bump: 10000,
};

/**
 * What the proxy refuses `eth_getLogs` beyond, as BSC's public nodes do (the server's range is
 * the same), and the blocks mined after the shared token's launch: more than one read may span.
 * The reduced run makes both smaller (the server's block scanners catch up 6,000 blocks slowly).
 */
const LOGS: Record<Mode, { range: number; old: number }> = {
  full: { range: 5000, old: 6000 },
  reduced: { range: 100, old: 150 },
};

interface Rule {
  id: string;
  state: string;
  reading: { block: string; error?: string } | null;
  firings: Array<{ state: string }>;
}

/**
 * A rule that never fires (outside buys since the launch of 1,000 BNB), on a token of its user:
 * its reading is read again each block, and says the outside buys, so a buy changes it.
 */
const standingRule = async (server: Server, token: Address, key?: string) => {
  const created = await server.api(
    "POST",
    "/api/bundle/rules",
    {
      address: token,
      trigger: { any: [{ type: "outsideBuys", atLeastBnb: "1000" }] },
      action: { percent: 1 },
    },
    key ? { key } : {},
  );
  const id = (created.body.rule as { id?: string } | undefined)?.id;
  if (!id) throw new Error(`standing rule: ${JSON.stringify(created.body)}`);
  return { token, key, id };
};
type Standing = Awaited<ReturnType<typeof standingRule>>;

const rulesOf = async (server: Server, token: Address, key?: string) =>
  ((await server.api("GET", `/api/bundle/rules?address=${token}`, undefined, key ? { key } : {}))
    .body.rules ?? []) as Rule[];

/** The trials on one database, the server reading its chain through the unreliable RPC. */
const trialsOn = async (
  name: string,
  databaseUrl: string | undefined,
  trials: number,
  kinds: readonly Kind[],
  seed: number,
  mode: Mode,
  log: (line: string) => void,
): Promise<Figure[]> => {
  const maxDelayMs = Number(process.env.UNRELIABLE_RPC_DELAY_MS ?? (mode === "full" ? 2000 : 500));
  const logs = LOGS[mode];
  const database = databaseUrl ? await createPostgresDatabase(databaseUrl) : undefined;
  const treasuryKey = generatePrivateKey();
  const treasury = privateKeyToAccount(treasuryKey).address;
  let builderUrl = () => "";
  const rpc = await startUnreliableRpc({
    upstream: () => builderUrl(),
    seed,
    maxLag: 3,
    dropRate: 0.03,
    delayMs: uniformDelay(maxDelayMs),
    maxLogRange: logs.range,
  });
  const server = crashServer("unreliable-rpc-row", {
    LOCAL_RPC_URL: rpc.url,
    LOGS_MAX_BLOCK_RANGE: String(logs.range),
    LAUNCH_FEE_BNB: "0.01",
    BUMPER_MINUTE_SECONDS: "1",
    KEY_PAYMENT_LIMIT_PER_HOUR: "1000",
    TREASURY_PRIVATE_KEY: treasuryKey,
    TREASURY_ADDRESS: treasury,
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  builderUrl = server.builderUrl;
  const holdersNeeded = kinds.filter((k) => k !== "dispersal" && k !== "claim payout").length;
  const rounds = Math.ceil(trials / kinds.length);
  log(`${name}:`);
  const started = performance.now();
  try {
    // The set-up goes through calmly: the faults are for the trials.
    rpc.calm();
    const step = (what: string) =>
      log(`  ${what} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await server.start();
    step("started");
    await server.setBalance(treasury, parseEther("10"));
    const launched = await launchThrough(server, holdersNeeded * rounds + 1, FEE);
    const shared: Shared = {
      referrals: 0,
      token: launched.token,
      holders: launched.input.walletConfig.wallets.map((w) => w.address as Address),
    };
    step("launched");
    // The token gets old: its launch is further back than one eth_getLogs may reach.
    await server.rpc("anvil_mine", [`0x${logs.old.toString(16)}`]);
    step("mined");
    // Another user, with a token and a rule of their own, beside the first user's.
    const other = (
      await server.api(
        "POST",
        "/api/auth/key/generate-free",
        { deviceId: `unreliable-rpc-${seed}` },
        { anonymous: true },
      )
    ).body.key as string;
    if (!other) throw new Error("the second user's free key");
    const theirs = await launchThrough(server, 1, FEE, { as: other });
    step("the other user launched");
    const standing: Standing[] = [
      await standingRule(server, launched.token),
      await standingRule(server, theirs.token, other),
    ];
    rpc.unsettle();
    log(`  set up in ${((performance.now() - started) / 1000).toFixed(0)} s`);

    // Every user's rules are read again as the chain moves: after each trial (the last one in
    // the reduced run) an outside buy of each standing rule's token, and each rule's reading
    // must come to say it.
    let notFollowed = 0;
    let slowest = 0;
    const followed = async (trial: number) => {
      for (const rule of standing) {
        const block = await outsideBuy(server, rule.token, parseEther("0.01"));
        let seenAt = 0n;
        const caughtUp = await server
          .waitFor(
            async () => {
              const reading = (await rulesOf(server, rule.token, rule.key)).find(
                (r) => r.id === rule.id,
              )?.reading;
              if (!reading || BigInt(reading.block) < block) return false;
              seenAt = await server.client().getBlockNumber();
              return true;
            },
            "a standing rule's reading",
            60_000,
          )
          .then(() => true)
          .catch(() => false);
        if (!caughtUp) {
          notFollowed += 1;
          log(`    trial ${trial}: rule ${rule.id} did not read the buy of block ${block}`);
        } else slowest = Math.max(slowest, Number(seenAt - block));
      }
    };

    let sells = 0;
    const tally = await runTrials({
      server,
      trials,
      kinds,
      prepare: (kind) =>
        kind === "repeated sell"
          ? Promise.resolve(prepareRepeatedSell(server, shared, treasury, ++sells))
          : kind === "sniper guard on an old token"
            ? prepareAutosell(server, shared, treasury, { sinceLaunch: true })
            : prepare(kind, server, shared, treasury),
      span: (kind) => SPAN[kind],
      random: seeded(seed + 1),
      // A sell that failed before its failpoint has nothing left to reach it: the reduced run
      // kills it sooner.
      failpointWithinMs: mode === "full" ? 30_000 : 10_000,
      closedWith: [...server.contracts(), LOCAL_TIP_ADDRESS],
      log,
      // The reduced run looks once, after its last trial (a look takes two buys and a few blocks).
      afterTrial: async (trial) => {
        if (mode === "full" || trial === trials) await followed(trial);
      },
    });

    // Nothing left waiting: every firing ended, every standing rule read without an error.
    let stuck = 0;
    await server
      .waitFor(
        async () => {
          stuck = 0;
          for (const token of [launched.token, theirs.token]) {
            const key = token === theirs.token ? other : undefined;
            for (const rule of await rulesOf(server, token, key)) {
              if (rule.firings.some((f) => f.state === "selling")) stuck += 1;
              else if (rule.state === "armed" && (!rule.reading || rule.reading.error)) stuck += 1;
            }
          }
          return stuck === 0;
        },
        "every rule to settle",
        60_000,
      )
      .catch(() => log(`  ${stuck} rules stuck`));
    const s = rpc.stats;
    log(
      `  the proxy: ${s.requests} requests, ${s.calls} calls, ${s.lagging} answered by a lagging node, ${s.hiddenReceipts} receipts hidden, ${s.refusedLogRanges} log ranges refused, ${s.dropped.close + s.dropped["502"]} answers dropped, ${s.upstreamDown} while the node was down`,
    );
    log(`  kills: ${tally.trials} (${tally.failpointKills} at a failpoint)`);
    return [
      ...tallyFigures(name, tally),
      zero(`${name}: rules stuck (a firing never ending, a rule left unread)`, stuck),
      zero(
        `${name}: standing rules (two users) that did not read an outside buy within 60 s`,
        notFollowed,
      ),
      atMost(
        `${name}: blocks from an outside buy to every standing rule's reading of it`,
        slowest,
        30,
      ),
    ];
  } finally {
    await server.remove();
    await rpc.close();
    await database?.drop();
  }
};

/**
 * The reduced run (inside `npm test`) fires one sniper guard on the old token: the log ranges,
 * the lagging nodes, a kill and the books, and both users' standing rules after it. Sells asked
 * again under one requestId have their property test in the integration project
 * (sell-requests.property.int.test.ts, failpoints, refusing builders and blocks drawn); the full
 * run asks them through this proxy with kills.
 */
const REDUCED_KINDS: readonly Kind[] = ["sniper guard on an old token"];

export const unreliableRpcRow: Row = {
  name: "unreliable-rpc",
  what: "the real server reads its chain through a proxy that behaves like a public load-balanced BSC endpoint (nodes 0-3 blocks apart per call, eth_getLogs over 5,000 blocks refused, 3% of answers dropped, the rest delayed up to 2 s) while it is SIGKILLed at random moments or failpoints during sells asked again under one requestId, auto-sell firings (a sniper guard on a token launched 6,000 blocks ago among them), dispersals, claim payouts and bumps; two users' standing rules must read every outside buy",
  async run(context) {
    // UNRELIABLE_RPC_KINDS="repeated sell,bump" runs only those kinds, UNRELIABLE_RPC_TRIALS=n
    // that many trials (on each database), UNRELIABLE_RPC_SEED replays a run.
    const kinds = kindsToRun(KINDS, REDUCED_KINDS, context.mode, process.env.UNRELIABLE_RPC_KINDS);
    const trials = Number(
      process.env.UNRELIABLE_RPC_TRIALS ??
        (context.mode === "full" ? 3 * kinds.length : kinds.length),
    );
    const seed = seedFrom(process.env.UNRELIABLE_RPC_SEED);
    context.log(
      `unreliable-rpc: ${trials} trials a database, answers delayed up to ${context.mode === "full" ? 2000 : 500} ms, eth_getLogs refused over ${LOGS[context.mode].range} blocks, seed ${seed} (UNRELIABLE_RPC_SEED=${seed} replays the faults and moments)`,
    );
    const figures = await trialsOn(
      "PGlite",
      undefined,
      trials,
      kinds,
      seed,
      context.mode,
      context.log,
    );
    if (context.databaseUrl)
      figures.push(
        ...(await trialsOn(
          "Postgres",
          context.databaseUrl,
          trials,
          kinds,
          seed,
          context.mode,
          context.log,
        )),
      );
    return figures;
  },
};
