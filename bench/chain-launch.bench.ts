// Launch bundles on a fresh local chain (anvil, blockTime 1) through the dev builder
// (cap 60): the time launchToken takes to build, sign and submit a 50-wallet bundle, phase
// by phase, and the inclusion rate over 20 launches, each checked on chain (create, 50 buys
// and the tip all in one block, in order, all successful). Prints figures, then exits
// non-zero unless all 20 launches landed in one block each, so a regression is visible.
import { getTxStatuses, type LaunchTokenReturnType, launchToken } from "@bundler/chain";
import { createPublicClient, type Hex, http, keccak256, parseEther } from "viem";
import {
  type BenchChain,
  median,
  percentile,
  prepareLaunch,
  randomAccounts,
  startBenchChain,
  TIP_ADDRESS,
} from "./lib/localChain.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { type RpcProxy, startRpcProxy } from "./lib/rpcProxy.ts";

const RUNS = 20;
const WALLETS = 50;
const MAX_TXS = 60;
const BLOCKS_AHEAD = 5n;
/** Different amounts per wallet, as a real launch would have. */
const funds = (i: number) => parseEther("0.01") + BigInt(i) * parseEther("0.0002");

const say = (line = "") => process.stdout.write(`${line}\n`);

let chain: BenchChain | undefined;
const proxies: RpcProxy[] = [];
const cleanup = async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
  await chain?.close();
};

const interrupted = onInterrupt(cleanup);

interface Launch {
  /** ms from calling launchToken. */
  simulated: number;
  sending: number;
  submitted: number;
  builderMs: number;
  succeeded: number;
  total: number;
  /** Blocks from the head when the bundle was sent to the block that holds it. */
  blocks: number;
  included: boolean;
  oneBlock: boolean;
  problem?: string;
}

const launch = async (
  bench: BenchChain,
  builderProxy: RpcProxy,
  rpcUrl: string,
  client: ReturnType<typeof createPublicClient>,
): Promise<Launch> => {
  const params = await prepareLaunch(bench, { buyers: randomAccounts(WALLETS), funds });
  builderProxy.reset();
  const marks = new Map<string, number>();
  const began = performance.now();
  let report: LaunchTokenReturnType;
  try {
    report = await launchToken({
      ...params,
      rpcUrl,
      blocksAhead: BLOCKS_AHEAD,
      builders: [{ name: "dev", url: builderProxy.url, tipAddress: TIP_ADDRESS, maxTxs: MAX_TXS }],
      onStep: (message) => {
        const word = message.split(" ")[0] ?? message;
        if (!marks.has(word)) marks.set(word, performance.now());
      },
    });
  } catch (error) {
    const failed = Number.NaN;
    return {
      simulated: failed,
      sending: failed,
      submitted: failed,
      builderMs: failed,
      succeeded: failed,
      total: performance.now() - began,
      blocks: failed,
      included: false,
      oneBlock: false,
      problem: (error as Error).message,
    };
  }
  const total = performance.now() - began;
  const since = (word: string) => (marks.get(word) ?? Number.NaN) - began;

  const sent = builderProxy.requests.find((r) => r.methods[0] === "eth_sendBundle");
  const bundle = sent?.calls[0]?.params?.[0] as { txs: Hex[]; maxBlockNumber: number } | undefined;
  const result: Launch = {
    simulated: since("PASSED"),
    sending: since("Sending"),
    submitted: (sent?.answeredAt ?? Number.NaN) - began,
    builderMs: sent ? sent.answeredAt - sent.receivedAt : Number.NaN,
    succeeded: since("SUCCESS"),
    total,
    blocks: Number.NaN,
    included: false,
    oneBlock: false,
  };
  const first = report.bundles[0];
  if (report.bundles.length !== 1 || first?.status !== "included" || !bundle) {
    result.problem = `bundles: ${JSON.stringify(report.bundles.map((b) => b.status))}`;
    return result;
  }
  result.included = true;
  result.blocks = Number(first.blockNumber) - (bundle.maxBlockNumber - Number(BLOCKS_AHEAD));

  // On chain: the block holds exactly create + 50 buys + tip, in order, and all succeeded.
  const hashes = bundle.txs.map((raw) => keccak256(raw));
  const block = await client.getBlock({ blockNumber: first.blockNumber });
  const statuses = await getTxStatuses(bench.rpcUrl, { hashes });
  const sameBlock = statuses.every(
    (s) => s.status === "success" && s.blockNumber === first.blockNumber,
  );
  const exactBlock =
    block.transactions.length === hashes.length &&
    block.transactions.every((hash, i) => hash.toLowerCase() === hashes[i]?.toLowerCase());
  result.oneBlock =
    hashes.length === WALLETS + 2 &&
    sameBlock &&
    exactBlock &&
    report.atomicWithCreate.length === WALLETS;
  if (!result.oneBlock) {
    result.problem =
      `${hashes.length} txs sent, block ${first.blockNumber} holds ${block.transactions.length}` +
      `, statuses ${statuses.map((s) => s.status[0]).join("")}`;
  }
  return result;
};

const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : "n/a");

const main = async () => {
  const startedAt = performance.now();
  chain = await startBenchChain({ builderMaxTxs: MAX_TXS });
  const builderProxy = await startRpcProxy(chain.builder.url);
  proxies.push(builderProxy);
  const rpcProxy = await startRpcProxy(chain.rpcUrl);
  proxies.push(rpcProxy);
  const client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
  say(
    `chain: anvil ${chain.rpcUrl} (blockTime 1), dev builder cap ${MAX_TXS}, ` +
      `setup ${ms(performance.now() - startedAt)}`,
  );

  // Warm-up (not counted): JIT, connections; its RPC traffic to anvil is counted instead.
  const warm = await launch(chain, builderProxy, rpcProxy.url, client);
  const anvilRequests = rpcProxy.requests.length;
  const anvilCalls = rpcProxy.calls();
  const methods = new Map<string, number>();
  for (const request of rpcProxy.requests) {
    const key = request.batch ? `batch of ${request.methods[0]}` : (request.methods[0] ?? "?");
    methods.set(key, (methods.get(key) ?? 0) + 1);
  }
  say(
    `warm-up launch: ${warm.oneBlock ? "included in one block" : `not clean (${warm.problem})`}, ` +
      `end to end ${ms(warm.total)}`,
  );

  say(`${RUNS} launches of 1 creator + ${WALLETS} wallets + tip (${WALLETS + 2} txs per bundle):`);
  const runs: Launch[] = [];
  for (let run = 1; run <= RUNS && !interrupted(); run++) {
    const result = await launch(chain, builderProxy, chain.rpcUrl, client);
    runs.push(result);
    say(
      `  launch ${String(run).padStart(2)}/${RUNS}: build+sign ${ms(result.sending)}, ` +
        `submitted at ${ms(result.submitted)} (builder ${ms(result.builderMs)}), ` +
        `end to end ${ms(result.total)}, +${result.blocks} block(s), ` +
        (result.oneBlock ? "52/52 txs in one block" : `PROBLEM: ${result.problem}`),
    );
  }

  if (interrupted()) return; // cleanup is under way; a partial summary would mislead
  const row = (name: string, values: number[]) =>
    say(
      `  ${name.padEnd(42)} median ${ms(median(values)).padStart(7)}   p90 ${ms(percentile(values, 90)).padStart(7)}`,
    );
  const ok = runs.filter((r) => r.included);
  const pick = (f: (r: Launch) => number) => ok.map(f);
  say();
  say(`launchToken phases over ${ok.length} included launches (ms from the call):`);
  row(
    "simulate the bundle (eth_simulateV1)",
    pick((r) => r.simulated),
  );
  row(
    "check funds, read nonces, sign 51 txs",
    pick((r) => r.sending - r.simulated),
  );
  row(
    "build + sign (until 'Sending bundle')",
    pick((r) => r.sending),
  );
  row(
    "submit (sign tip + eth_sendBundle)",
    pick((r) => r.submitted - r.sending),
  );
  row(
    "  of which the dev builder (sim + mine)",
    pick((r) => r.builderMs),
  );
  row(
    "build + sign + submit",
    pick((r) => r.submitted),
  );
  row(
    "submit -> inclusion seen (waitForBundle)",
    pick((r) => r.succeeded - r.submitted),
  );
  row(
    "launchToken end to end",
    pick((r) => r.total),
  );
  const blocks = pick((r) => r.blocks);
  say(
    `  ${"blocks from submit to inclusion".padEnd(42)} median ${median(blocks)}   ` +
      `p90 ${percentile(blocks, 90)}   max ${Math.max(...blocks)}`,
  );
  say(
    `  rpc per launch (warm-up, counted)          ${anvilRequests} HTTP requests to anvil ` +
      `(${anvilCalls} JSON-RPC calls: ${[...methods].map(([m, n]) => `${n}x ${m}`).join(", ")}) ` +
      `+ ${builderProxy.requests.length} eth_sendBundle`,
  );
  say();
  const oneBlock = runs.filter((r) => r.oneBlock).length;
  say(
    `inclusion ${ok.length}/${RUNS}, ` +
      (oneBlock === RUNS
        ? "all in one block each"
        : `${oneBlock}/${RUNS} with create + ${WALLETS} buys + tip in one block`),
  );
  say(`bench took ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
  if (oneBlock !== RUNS) {
    process.stderr.write(`inclusion regression: ${oneBlock}/${RUNS} launches in one block\n`);
    process.exitCode = 1;
  }
};

try {
  await main();
} finally {
  await cleanup();
}
