import { getTokenInfos } from "@bundler/chain";
import { PNL_COST_KINDS, type PnlKind } from "@bundler/shared";
import { type Address, getAddress } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { PnlBundle, PnlRepository } from "../pnl/pnl.repository.ts";
import { bundleWorth } from "../pnl/pnl-exit.ts";
import { holdersOf } from "../pnl/pnl-lines.ts";
import type { PriceService } from "../price/price.service.ts";
import { AutosellFlows, LOGS_MAX_BLOCK_RANGE, type OutsideRead } from "./autosell-flows.ts";
import type { AutosellPassRepository } from "./autosell-pass.repository.ts";
import { failureWords, type ReadProblem } from "./autosell-problems.ts";
import type { needsOf, TokenReading } from "./autosell-triggers.ts";

const WHOLE = 10n ** 18n;
/** four.meme's fixed supply (and the local launchpad's): a billion tokens. */
const TOKEN_SUPPLY = 1_000_000_000n * WHOLE;
/** Tokens per multicall. */
const MULTICALL_TOKENS = 500;
const COSTS = new Set<PnlKind>(PNL_COST_KINDS);

export type Needs = ReturnType<typeof needsOf>;

/** A token's failure when the launchpad answers nothing for it. */
export const NOT_LAUNCHPADS = "the launchpad does not know this token";
type TokenInfo = NonNullable<Awaited<ReturnType<typeof getTokenInfos>>[number]>;

/** What one read answers: a per-token result, or why it failed (for that token only). */
type Each<T> = Map<string, { value: T } | { problem: ReadProblem }>;

/** `read` once per token, each failure its own token's. */
const eachOf = async <T>(
  tokens: string[],
  read: (token: string) => Promise<T>,
  what: string,
): Promise<Each<T>> => {
  const found: Each<T> = new Map();
  await Promise.all(
    tokens.map(async (token) => {
      try {
        found.set(token, { value: await read(token) });
      } catch (cause) {
        found.set(token, { problem: { what, why: failureWords(cause) } });
      }
    }),
  );
  return found;
};

/**
 * Every input the armed rules of many tokens read at one block, in a fixed number of requests
 * whatever the number of rules: the head block, one multicall per 500 tokens (price, funds,
 * launch time), the launchpad's events for the outside trading of every token a sniper guard
 * watches (AutosellFlows: one request, more only while an old token catches up), the ledger's
 * sums in one statement, and one exit simulation per token whose rules need it (the one the
 * P&L page shares, cached per block). A read that fails fails only the tokens it was for: a
 * token without its price and funds is a failure said on its rules; an input that failed is a
 * problem its conditions say (not met meanwhile); the other tokens are read as usual.
 */
export class AutosellReader {
  private readonly flows: AutosellFlows;

  constructor(
    private readonly chain: ChainContext,
    private readonly pnl: PnlRepository,
    repo: AutosellPassRepository,
    private readonly prices: PriceService,
    /** LOGS_MAX_BLOCK_RANGE: the most blocks one `eth_getLogs` spans. */
    logsMaxBlockRange = LOGS_MAX_BLOCK_RANGE,
  ) {
    this.flows = new AutosellFlows(chain, repo, BigInt(logsMaxBlockRange));
  }

  async read(
    bundles: ReadonlyMap<string, PnlBundle>,
    needs: ReadonlyMap<string, Needs>,
  ): Promise<{
    block: bigint;
    readings: Map<string, TokenReading>;
    /** Tokens whose price and funds could not be read, and why. */
    failures: Map<string, string>;
  }> {
    const { chain } = this;
    const helper = chain.trade?.helper;
    if (!helper || !chain.launchpad) throw new Error("trading is not configured here");
    const tokens = [...bundles.keys()];
    const head = await chain.client.getBlock();
    // Reads shared per block (the exit simulation) must not answer from an earlier head.
    chain.reads.observe(head.number);
    const want = (pick: (n: Needs) => boolean) => tokens.filter((t) => pick(needs.get(t) as Needs));
    const [infos, launchTimes, bnbUsd, sums, worths, outside] = await Promise.all([
      this.infos(helper, tokens),
      // The app creates tokens that start trading at once (launchTime 0): the launch's block
      // time then, read once per token.
      eachOf(
        want((n) => n.time),
        (token) => this.launchTimeOf(token, bundles.get(token) as PnlBundle),
        "the launch's block could not be read",
      ),
      this.prices
        .bnbUsd()
        .then((p) => p.price)
        .catch(() => null),
      this.pnl.sumsOf(want((n) => n.ledger)).then(
        (sums) => ({ sums }),
        (cause) => ({
          problem: { what: "the P&L ledger could not be read", why: failureWords(cause) },
        }),
      ),
      eachOf(
        want((n) => n.exit),
        (token) => {
          const holders = holdersOf(bundles.get(token) as PnlBundle).map((h) => h.address);
          return bundleWorth(chain, token, holders);
        },
        "the exit simulation failed",
      ),
      this.flows.read(
        bundles,
        want((n) => n.outside),
        head.number,
      ),
    ]);
    const readings = new Map<string, TokenReading>();
    const failures = new Map<string, string>();
    for (const token of tokens) {
      const info = infos.get(token);
      if (!info || "problem" in info) {
        failures.set(
          token,
          info
            ? `the launchpad's price and funds could not be read (${info.problem.why})`
            : NOT_LAUNCHPADS,
        );
        continue;
      }
      const { value } = info;
      const problems: TokenReading["problems"] = {};
      const launched = launchTimes.get(token);
      if (launched && "problem" in launched) problems.launchTime = launched.problem;
      const rows = "sums" in sums ? sums.sums.get(token) : undefined;
      if ("problem" in sums && (needs.get(token) as Needs).ledger) problems.ledger = sums.problem;
      const cost = rows?.reduce((s, r) => (COSTS.has(r.kind) ? s + BigInt(r.bnb) : s), 0n) ?? 0n;
      const bought =
        rows?.reduce(
          (s, r) => (r.kind === "buy" || r.kind === "dev-buy" ? s + BigInt(r.tokens) : s),
          0n,
        ) ?? 0n;
      const averageCostWei = bought > 0n ? (cost * WHOLE) / bought : null;
      const worthRead = worths.get(token);
      if (worthRead && "problem" in worthRead) problems.exit = worthRead.problem;
      const worth = worthRead && "value" in worthRead ? worthRead.value : undefined;
      const tokensHeld = worth
        ? [...worth.holdings.values()].reduce((s, h) => s + h.token, 0n)
        : 0n;
      const flowsRead: OutsideRead | undefined = outside.get(token);
      if (flowsRead && "problem" in flowsRead) problems.outside = flowsRead.problem;
      const flows = flowsRead && "flows" in flowsRead ? flowsRead.flows : [];
      const within = new Map<number, bigint>();
      for (const n of (needs.get(token) as Needs).windows)
        within.set(
          n,
          flows.reduce((s, [block, net]) => (block > head.number - BigInt(n) ? s + net : s), 0n),
        );
      readings.set(token, {
        block: head.number,
        blockTime: head.timestamp,
        launchTime:
          value.launchTime === 0n && launched && "value" in launched
            ? launched.value
            : value.launchTime,
        priceWei: value.lastPrice,
        marketCapWei: (value.lastPrice * TOKEN_SUPPLY) / WHOLE,
        bnbUsd,
        curvePercent: value.liquidityAdded
          ? 100
          : value.maxFunds > 0n
            ? Number((value.funds * 10_000n) / value.maxFunds) / 100
            : 0,
        averageCostWei,
        // What the held tokens cost at the ledger's average: the chain's holdings, so a sale
        // the ledger has not taken in yet does not read as a loss.
        exit: worth
          ? {
              exitWei: worth.exitTotal,
              heldCostWei: averageCostWei === null ? 0n : (averageCostWei * tokensHeld) / WHOLE,
              tokensHeld,
            }
          : null,
        outside: {
          sinceLaunch: flows.reduce((s, [, net]) => s + net, 0n),
          within,
        },
        problems,
      });
    }
    return { block: head.number, readings, failures };
  }

  /** Launch blocks' times by token: they never change. */
  private readonly launchTimes = new Map<string, bigint>();

  /** The launch block's time, for a token the launchpad says launched at 0 (at once). */
  private async launchTimeOf(token: string, bundle: PnlBundle): Promise<bigint> {
    const known = this.launchTimes.get(token);
    if (known !== undefined) return known;
    const block = await this.chain.client.getBlock({ blockNumber: bundle.launchBlock });
    this.launchTimes.set(token, block.timestamp);
    return block.timestamp;
  }

  /** Each token's launchpad info: one multicall per 500 tokens, a failed one its tokens' own. */
  private async infos(helper: Address, tokens: string[]): Promise<Each<TokenInfo>> {
    const found: Each<TokenInfo> = new Map();
    const chunks = [];
    for (let i = 0; i < tokens.length; i += MULTICALL_TOKENS)
      chunks.push(tokens.slice(i, i + MULTICALL_TOKENS));
    await Promise.all(
      chunks.map(async (chunk) => {
        try {
          const infos = await getTokenInfos(this.chain.client, {
            helper,
            tokens: chunk.map((t) => getAddress(t)),
          });
          chunk.forEach((token, i) => {
            const info = infos[i];
            if (info) found.set(token, { value: info });
          });
        } catch (cause) {
          const problem = { what: "the launchpad could not be read", why: failureWords(cause) };
          for (const token of chunk) found.set(token, { problem });
        }
      }),
    );
    return found;
  }
}
