import { LaunchpadManagerArtifact } from "@bundler/contracts";
import { type Address, parseEventLogs } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { PnlBundle } from "../pnl/pnl.repository.ts";
import { addressesOf, higherOf, lowerOf } from "../pnl/pnl-lines.ts";
import type { AutosellPassRepository } from "./autosell-pass.repository.ts";
import { failureWords, type ReadProblem } from "./autosell-problems.ts";

/** The default of LOGS_MAX_BLOCK_RANGE: blocks one `eth_getLogs` may span. */
export const LOGS_MAX_BLOCK_RANGE = 5_000;
/**
 * Requests a pass spends catching up tokens whose events are more than one range behind (a
 * token launched long before its first sniper guard): the rest waits for the next pass, so a
 * pass stays short whatever the tokens' age.
 */
export const CATCH_UP_REQUESTS = 5;
/** The database's cursor is moved at least this often (blocks) when no flow is found. */
const PERSIST_EVERY = 1_000n;
/**
 * The newest blocks whose events are read again at every pass, never kept: a load-balanced
 * endpoint answers an `eth_getLogs` from a node that may be behind the one that said the head,
 * and such a node answers nothing for the blocks it does not have yet (public nodes clamp the
 * range to their own head). A buy in those blocks is counted once a later pass reads them from
 * a node that has them; the cursor moves only past blocks this far under the head.
 */
export const REREAD_BLOCKS = 20n;

/** A token's outside flows as this process keeps them, and how far it and the database read. */
interface FlowCache {
  scannedTo: bigint;
  /** The cursor the database holds (at most `scannedTo`). */
  persisted: bigint;
  flows: Array<[bigint, bigint]>;
}

/** A token's outside flows up to the head, or why they could not be read at this block. */
export type OutsideRead = { flows: Array<[bigint, bigint]> } | { problem: ReadProblem };

type Flow = { token: string; block: bigint; netWei: bigint };

const eventsRead = (why: string): ReadProblem => ({
  what: "the launchpad's events could not be read",
  why,
});

/**
 * Outside trading per token (the launchpad's TokenPurchase / TokenSale by wallets that are not
 * the bundle's), read in `eth_getLogs` ranges of at most `range` blocks. Tokens read up to
 * within one range of the head share one request; a token further behind (its first read goes
 * back to its launch) is read in chunks, at most CATCH_UP_REQUESTS a pass, and says how far it
 * is meanwhile. A request that fails fails only the tokens it was for. Flows are appended to
 * the database before this process's cursor moves past them and kept here between passes; the
 * database's cursor is written with new flows (or every 1,000 blocks), so another process, or
 * this one after a restart, reads again at most what it had not kept (the same rows).
 */
export class AutosellFlows {
  private readonly cache = new Map<string, FlowCache>();

  constructor(
    private readonly chain: ChainContext,
    private readonly repo: AutosellPassRepository,
    private readonly range: bigint,
  ) {}

  async read(
    bundles: ReadonlyMap<string, PnlBundle>,
    tokens: string[],
    head: bigint,
  ): Promise<Map<string, OutsideRead>> {
    const answers = new Map<string, OutsideRead>();
    if (tokens.length === 0) return answers;
    try {
      await this.load(bundles, tokens);
    } catch (cause) {
      const problem = { what: "the outside flows could not be loaded", why: failureWords(cause) };
      return new Map(tokens.map((t) => [t, { problem }]));
    }
    const entry = (token: string) => this.cache.get(token) as FlowCache;
    const ours = new Map(tokens.map((t) => [t, new Set(addressesOf(bundles.get(t) as PnlBundle))]));
    const found: Flow[] = [];
    const scanned = new Map<string, bigint>();
    const failed = new Map<string, ReadProblem>();
    const fromOf = (t: string) => (scanned.get(t) ?? entry(t).scannedTo) + 1n;
    const left = () => tokens.filter((t) => !failed.has(t) && fromOf(t) <= head);

    /** One request for the tokens whose next block is within [from, to]. */
    const readSpan = async (from: bigint, to: bigint) => {
      const served = left().filter((t) => fromOf(t) >= from && fromOf(t) <= to);
      try {
        found.push(...(await this.span(from, to, served, fromOf, ours)));
        for (const t of served) scanned.set(t, to);
      } catch (cause) {
        for (const t of served) failed.set(t, eventsRead(failureWords(cause)));
      }
    };

    // Tokens within one range of the head: one request, whatever their number.
    const near = left().filter((t) => head - fromOf(t) < this.range);
    if (near.length > 0) await readSpan(near.map(fromOf).reduce(lowerOf), head);
    // Tokens further behind: chunks from the earliest, each serving every token it reaches.
    for (let n = 0; n < CATCH_UP_REQUESTS && left().length > 0; n++) {
      const from = left().map(fromOf).reduce(lowerOf);
      const to = lowerOf(from + this.range - 1n, head);
      await readSpan(from, to);
    }

    // What is kept (cached, recorded) stops REREAD_BLOCKS under the head, never going back
    // (a head from a lagging node can be lower than the last one); the newest blocks' flows
    // answer this pass only, and are read again by the next.
    const tail = this.range > 1n ? lowerOf(REREAD_BLOCKS, this.range - 1n) : 0n;
    const cursors = new Map<string, bigint>();
    for (const [t, to] of scanned) {
      cursors.set(t, higherOf(lowerOf(to, head - tail), entry(t).scannedTo));
    }
    const kept = (f: Flow) => f.block <= (cursors.get(f.token) ?? -1n);
    const moved = tokens.filter((t) => {
      const to = cursors.get(t);
      return (
        to !== undefined &&
        (found.some((f) => f.token === t && kept(f)) || to - entry(t).persisted >= PERSIST_EVERY)
      );
    });
    if (moved.length > 0) {
      try {
        await this.repo.recordFlows(
          found.filter((f) => moved.includes(f.token) && kept(f)),
          moved.map((t) => [t, cursors.get(t) as bigint]),
        );
        for (const t of moved) entry(t).persisted = cursors.get(t) as bigint;
      } catch (cause) {
        // Kept nowhere: read again next pass (no cursor moves past an unrecorded flow).
        const problem = {
          what: "the outside flows could not be recorded",
          why: failureWords(cause),
        };
        for (const t of moved) {
          scanned.delete(t);
          cursors.delete(t);
          failed.set(t, problem);
        }
      }
    }
    for (const [t, to] of cursors) {
      const cached = entry(t);
      for (const f of found) if (f.token === t && kept(f)) cached.flows.push([f.block, f.netWei]);
      cached.scannedTo = to;
    }
    for (const t of tokens) {
      const problem = failed.get(t);
      const readTo = scanned.get(t) ?? entry(t).scannedTo;
      const fresh = found
        .filter((f) => f.token === t && !kept(f))
        .map((f): [bigint, bigint] => [f.block, f.netWei]);
      answers.set(
        t,
        problem
          ? { problem }
          : readTo < head
            ? {
                problem: {
                  what: "still reading the launchpad's events since the launch",
                  why: `read to block ${readTo} of ${head}`,
                },
              }
            : { flows: [...entry(t).flows, ...fresh] },
      );
    }
    return answers;
  }

  /** Where this process starts each token it has not read yet: the database's cursor, or its launch. */
  private async load(bundles: ReadonlyMap<string, PnlBundle>, tokens: string[]) {
    const unknown = tokens.filter((t) => !this.cache.has(t));
    if (unknown.length === 0) return;
    const [scans, flows] = await Promise.all([this.repo.scans(unknown), this.repo.flows(unknown)]);
    for (const token of unknown) {
      const scannedTo = scans.get(token) ?? (bundles.get(token) as PnlBundle).launchBlock - 1n;
      this.cache.set(token, { scannedTo, persisted: scannedTo, flows: flows.get(token) ?? [] });
    }
  }

  /** Each block's net outside buying of `tokens` in [from, to], from one `eth_getLogs`. */
  private async span(
    from: bigint,
    to: bigint,
    tokens: string[],
    fromOf: (token: string) => bigint,
    ours: Map<string, Set<string>>,
  ): Promise<Flow[]> {
    const logs = await this.chain.client.getLogs({
      address: this.chain.launchpad as Address,
      fromBlock: from,
      toBlock: to,
    });
    const events = parseEventLogs({
      abi: LaunchpadManagerArtifact.abi,
      logs,
      eventName: ["TokenPurchase", "TokenSale"],
    });
    const wanted = new Set(tokens);
    const net = new Map<string, Flow>();
    for (const event of events) {
      const { token, account, cost, fee } = event.args as {
        token: Address;
        account: Address;
        cost: bigint;
        fee: bigint;
      };
      const t = token.toLowerCase();
      if (!wanted.has(t) || ours.get(t)?.has(account.toLowerCase())) continue;
      if (event.blockNumber === null || event.blockNumber < fromOf(t)) continue;
      const key = `${t}:${event.blockNumber}`;
      const entry = net.get(key) ?? { token: t, block: event.blockNumber, netWei: 0n };
      // BNB the buyer paid (its fee included) less what a seller got (its fee taken).
      entry.netWei += event.eventName === "TokenPurchase" ? cost + fee : fee - cost;
      net.set(key, entry);
    }
    return [...net.values()];
  }
}
