import { type Figure, zero } from "../row.ts";
import { openBooks } from "./ledger.ts";
import type { Server, Work } from "./work.ts";

/** What a run of trials found, added up over its trials. */
export interface Tally {
  trials: number;
  /** Kills at an armed failpoint (the rest at a random moment, or when the point never came). */
  failpointKills: number;
  unaccounted: bigint;
  trialsUnaccounted: number;
  doubleCredits: number;
  repeated: number;
  unfinished: number;
  missing: number;
  doubleSales: number;
  missedFirings: number;
}

export interface Trials<K extends string> {
  server: Server;
  trials: number;
  /** The kinds of work, taken in turn. */
  kinds: readonly K[];
  prepare(kind: K): Promise<Work>;
  /** How long a kind of work runs, roughly (ms): a random kill lands within it. */
  span(kind: K): number;
  random: () => number;
  /** Addresses that close the books beside each trial's own (contracts, the builder's tips). */
  closedWith: readonly string[];
  log(line: string): void;
  /** How long an armed failpoint may take to be reached before the kill comes anyway (default 30 s). */
  failpointWithinMs?: number;
  /** How long a trial's work may take to finish after the restart (default 180 s). */
  finishWithinMs?: number;
  /** Runs after each trial's checks (a row's checks of its own). */
  afterTrial?(trial: number, kind: K): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The crashes row's trial, shared by every row that kills a server in the middle of work: each
 * trial prepares a piece of work, opens its books, starts it, SIGKILLs the server at a random
 * moment or at one of the work's failpoints (seeded), restarts it, sends again a request the
 * kill cut off (as a client retries), waits for the work to finish and closes the books.
 */
/**
 * The kinds a row's run tries: those `listed` (an environment variable's comma-separated names)
 * when given, else every kind in full and the `reduced` ones inside `npm test`.
 */
export const kindsToRun = <K extends string>(
  all: readonly K[],
  reduced: readonly K[],
  mode: "full" | "reduced",
  listed: string | undefined,
): readonly K[] =>
  listed ? all.filter((kind) => listed.split(",").includes(kind)) : mode === "full" ? all : reduced;

export const runTrials = async <K extends string>(run: Trials<K>): Promise<Tally> => {
  const { server, log, random } = run;
  const tally: Tally = {
    trials: 0,
    failpointKills: 0,
    unaccounted: 0n,
    trialsUnaccounted: 0,
    doubleCredits: 0,
    repeated: 0,
    unfinished: 0,
    missing: 0,
    doubleSales: 0,
    missedFirings: 0,
  };
  for (let i = 0; i < run.trials; i++) {
    const kind = run.kinds[i % run.kinds.length] as K;
    const work = await run.prepare(kind);
    const byFailpoint = random() < 0.5;
    const point = work.failpoints[Math.floor(random() * work.failpoints.length)] as string;
    const delay = Math.floor(random() * run.span(kind));
    if (byFailpoint) {
      await server.process.stop();
      await server.start(point);
    }
    const books = await openBooks(server.client, work.declared, run.closedWith);
    const began = Date.now();
    const answer = await work.start().catch(() => ({ status: 0 }));
    let moment = byFailpoint ? `failpoint ${point}` : `${delay} ms in`;
    if (byFailpoint) {
      const within = run.failpointWithinMs ?? 30_000;
      const died = await Promise.race([
        server.process.exited().then(() => true),
        sleep(within).then(() => false),
      ]);
      if (died) tally.failpointKills += 1;
      else {
        moment += ` (not reached in ${within / 1000} s: killed then)`;
        await server.process.crash();
      }
    } else {
      await sleep(delay);
      await server.process.crash();
    }
    await server.start();
    // A request the kill cut off is sent again, as the web app's retry would, and again while
    // the server says the chain failed (503: try again), as a user clicks again; a 500 is the
    // server's own failure and is said with what it logged.
    if (answer.status === 0 || answer.status >= 500) {
      let again: { status: number; body?: unknown } = { status: 0 };
      for (let tries = 0; tries < 5; tries++) {
        again = await work.start().catch(() => ({ status: 0 }));
        if (again.status === 500) {
          await sleep(500);
          const logged = server.process
            .printed()
            .split("\n")
            .filter((line) => /"level":50/.test(line))
            .slice(-2)
            .map((line) => line.slice(0, 600));
          log(`  trial ${i + 1}: 500 ${JSON.stringify(again.body)} ${logged.join(" / ")}`);
        }
        if (again.status !== 0 && again.status !== 503) break;
        await sleep(3000);
      }
      if (again.status !== 200 && again.status !== 409)
        log(`  trial ${i + 1}: the retry answered ${again.status} ${JSON.stringify(again.body)}`);
    }
    let finished = true;
    await server
      .waitFor(work.finished, `${kind} to finish`, run.finishWithinMs ?? 180_000)
      .catch(() => {
        finished = false;
      });
    if (!finished) {
      tally.unfinished += 1;
      log(`    left at: ${(await work.state?.()) ?? "?"}`);
      const said = server.process.printed().trim().split("\n").slice(-8);
      log(
        `    the server's last lines:\n      ${said.map((l) => l.slice(0, 400)).join("\n      ")}`,
      );
    }
    const ledger = await books.close(await work.declaredAfter());
    const found = await work.check(ledger);
    tally.trials += 1;
    tally.unaccounted += ledger.unaccounted;
    if (ledger.unaccounted !== 0n) tally.trialsUnaccounted += 1;
    tally.doubleCredits += found.doubleCredits;
    tally.missing += found.missing;
    tally.doubleSales += found.doubleSales ?? 0;
    tally.missedFirings += found.missedFirings ?? 0;
    tally.repeated += ledger.repeated + found.repeated;
    log(
      `  trial ${i + 1} ${kind}, killed at ${moment}: ${finished ? `finished in ${((Date.now() - began) / 1000).toFixed(0)} s` : "UNFINISHED"}, ${ledger.unaccounted} wei unaccounted, ${found.doubleCredits} double credits, ${ledger.repeated + found.repeated} repeated, ${found.missing} missing${found.doubleSales === undefined ? "" : `, ${found.doubleSales} double sales, ${found.missedFirings ?? 0} missed firings`}`,
    );
    for (const line of [ledger.detail, ...found.notes].filter(Boolean)) log(`    ${line}`);
    await run.afterTrial?.(i + 1, kind);
  }
  return tally;
};

/** A tally's figures, each a count that must be zero. */
export const tallyFigures = (name: string, tally: Tally): Figure[] => [
  zero(`${name}: wei unaccounted, summed over ${tally.trials} trials`, Number(tally.unaccounted)),
  zero(`${name}: trials with any wei unaccounted`, tally.trialsUnaccounted),
  zero(`${name}: double credits`, tally.doubleCredits),
  zero(`${name}: repeated transfers`, tally.repeated),
  zero(`${name}: planned transfers missing or short`, tally.missing),
  zero(`${name}: unfinished trials`, tally.unfinished),
  zero(`${name}: double sales (a wallet sold twice for one request or rule)`, tally.doubleSales),
  zero(`${name}: auto-sell missed firings`, tally.missedFirings),
];
