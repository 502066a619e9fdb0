// The bumper on the local chain (anvil, a block a second, behind the dev builder), in process,
// driven the way the server drives it: every block announced to the job engine, whose
// `bumper-tick` job moves the bumper. One bumper makes BUMPS bumps at a 1-second interval
// (a bumper minute shortened to a second). Prints the gas of one bump cycle per transaction
// (buy, approval, sell, the builder tip's transfer, the move to the next wallet), in gas units
// and in USD at the configured BNB price, against SPEC §1's cost notes, and how late the
// scheduler starts each bump and each bump is done (p50/p95 seconds after it was due).
// Prints figures; asserts nothing.
import type { Bump, Bumper } from "@bundler/shared";
import { formatEther, parseEther } from "viem";
import { watchBlocks } from "../apps/server/src/lib/block-watcher.ts";
import { BumperRepository } from "../apps/server/src/modules/bumper/bumper.repository.ts";
import { createTestApp, type TestApp } from "../apps/server/src/test/app.ts";
import { launchBundle } from "../apps/server/src/test/bundles.ts";
import { startTestChain, type TestChain } from "../apps/server/src/test/chain.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";

const BUMPS = Number(process.env.BUMPER_BUMPS ?? 30);
const MINUTE_MS = 1_000;
const BNB_USD = 600;
/** SPEC §1: average buy $0.10, token approval $0.30, average sell $0.09 of gas. */
const NOTES_USD = { buy: 0.1, approve: 0.3, sell: 0.09 } as const;

const say = (line = "") => process.stdout.write(`${line}\n`);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

let testChain: TestChain | undefined;
let app: TestApp | undefined;
let stopWatching: (() => void) | undefined;
const cleanup = async () => {
  stopWatching?.();
  await app?.close();
  await testChain?.stop();
};
const interrupted = onInterrupt(cleanup);

const main = async () => {
  const startedAt = performance.now();
  const masterKey = Buffer.alloc(32, 51);
  testChain = await startTestChain(masterKey);
  app = await createTestApp({
    chain: testChain.chain,
    masterKey,
    bumper: { minuteMs: MINUTE_MS },
  });
  const running = app;
  const watcher = watchBlocks(testChain.chain.rpcUrl, (block) => {
    void running.jobs.announceBlock(block).catch(() => {});
  });
  stopWatching = () => watcher.stop();
  const key = await app.auth.mintKey("user");
  const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
  const inject = async (method: "GET" | "POST", url: string, payload?: unknown) => {
    const response = await running.server.inject({
      method,
      url,
      headers: { "x-auth-key": key },
      ...(payload ? { payload: payload as Record<string, unknown> } : {}),
    });
    if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.body}`);
    return response.json() as Record<string, unknown>;
  };
  const generated = await inject("POST", "/api/bumper/generate", {
    targetToken: bundle.token,
    interval: 1,
    duration: BUMPS + 0.5,
    buySize: 0.01,
  });
  const bumper = generated.bumper as Bumper;
  await testChain.rpc("anvil_setBalance", [bumper.address, `0x${parseEther("1").toString(16)}`]);
  say(`one bumper, ${BUMPS} bumps of 0.01 BNB, interval 1 s; blocks every second`);
  const began = Date.now();
  await inject("POST", `/api/bumper/${bumper.id}/start`);
  let shown: { bumper: Bumper; bumps: Bump[] };
  for (;;) {
    shown = (await inject("GET", `/api/bumper/${bumper.id}`)) as typeof shown;
    if (shown.bumper.status !== "active" || interrupted()) break;
    if (Date.now() - began > BUMPS * 15_000) throw new Error("the bumper is far too slow");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (interrupted()) return;
  if (shown.bumper.status !== "completed")
    throw new Error(`the bumper ended ${shown.bumper.status}: ${shown.bumper.stopReason}`);

  // Gas per transaction kind, from the manager's records (fee / price = gas used).
  const rows = [
    ...((await running.transactions?.byKeyPrefix(`bump:${bumper.id}:`)) ?? []),
    ...((await running.transactions?.byKeyPrefix(`bump-move:${bumper.id}:`)) ?? []),
  ].filter((r) => r.status === "mined");
  const gasOf = (suffix: string, move = false) =>
    rows
      .filter((r) => (move ? r.key.startsWith("bump-move:") : r.key.endsWith(`:${suffix}`)))
      .map((r) => Number(BigInt(r.fee ?? 0) / BigInt(r.gasPrice)));
  const gasPrice = BigInt(rows[0]?.gasPrice ?? 0);
  const usd = (gas: number, price = gasPrice) =>
    Number(formatEther(BigInt(Math.round(gas)) * price)) * BNB_USD;
  const kinds = [
    ["buy", gasOf("buy"), NOTES_USD.buy],
    ["approve", gasOf("approve"), NOTES_USD.approve],
    ["sell", gasOf("sell"), NOTES_USD.sell],
    ["tip transfer", [21_000], null],
    ["move", gasOf("", true), null],
  ] as const;
  say();
  say(`gas per bump cycle at ${formatEther(gasPrice * 10n ** 9n)} gwei, BNB at $${BNB_USD}`);
  say(
    `  ${"kind".padEnd(13)} ${"gas (median)".padStart(12)} ${"USD".padStart(8)} ${"spec §1".padStart(8)}`,
  );
  let cycle = 0;
  for (const [kind, values, note] of kinds) {
    const gas = percentile([...values], 50);
    cycle += Number.isFinite(gas) ? gas * (kind === "approve" ? values.length / BUMPS : 1) : 0;
    say(
      `  ${kind.padEnd(13)} ${String(Number.isFinite(gas) ? gas : "-").padStart(12)} ` +
        `${(Number.isFinite(gas) ? `$${usd(gas).toFixed(4)}` : "-").padStart(8)} ` +
        `${(note === null ? "" : `$${note.toFixed(2)}`).padStart(8)}` +
        (kind === "approve" ? `   (${values.length} of ${BUMPS} bumps needed one)` : ""),
    );
  }
  const tip = parseEther("0.0005");
  say(
    `  cycle         ${String(Math.round(cycle)).padStart(12)} ${`$${usd(cycle).toFixed(4)}`.padStart(8)}` +
      `   + builder tip ${formatEther(tip)} BNB ($${(Number(formatEther(tip)) * BNB_USD).toFixed(2)}); ` +
      `spec's budget 0.001 BNB a bump ($${(0.001 * BNB_USD).toFixed(2)})`,
  );

  // Lateness: bump n is due an interval after bump n−1 was done (the first at the start).
  const bumps = shown.bumps;
  const startLate: number[] = [];
  const landLate: number[] = [];
  const bumpRows = await new BumperRepository(running.database.db).bumps(bumper.id);
  for (let i = 1; i < bumps.length; i++) {
    const due = Date.parse(bumps[i - 1]?.at as string) + MINUTE_MS;
    const started = bumpRows[i]?.createdAt;
    if (started) startLate.push((started.getTime() - due) / 1000);
    landLate.push((Date.parse(bumps[i]?.at as string) - due) / 1000);
  }
  say();
  say(
    `scheduler over ${bumps.length} bumps: started p50 ${percentile(startLate, 50).toFixed(2)} s / ` +
      `p95 ${percentile(startLate, 95).toFixed(2)} s late; done (traded and moved) p50 ` +
      `${percentile(landLate, 50).toFixed(2)} s / p95 ${percentile(landLate, 95).toFixed(2)} s after due ` +
      `(blocks are 1 s apart: a bump is a bundle, then a move, each waiting for its block)`,
  );
  const first = bumps[0];
  const last = bumps.at(-1);
  if (first && last)
    say(
      `${bumps.length} bumps in ${((Date.parse(last.at) - began) / 1000).toFixed(0)} s ` +
        `(${((Date.parse(last.at) - began) / 1000 / bumps.length).toFixed(1)} s a bump, interval 1 s); ` +
        `volume ${shown.bumper.volume} BNB, gas and tips ${shown.bumper.gasSpent} BNB`,
    );
  say(`bench took ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
};

try {
  await main();
} finally {
  await cleanup();
}
