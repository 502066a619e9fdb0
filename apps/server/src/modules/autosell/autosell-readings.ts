import { getTokenInfos } from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import { PNL_COST_KINDS, type PnlKind } from "@bundler/shared";
import { type Address, getAddress, parseEventLogs } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { PnlBundle, PnlRepository } from "../pnl/pnl.repository.ts";
import { bundleWorth } from "../pnl/pnl-exit.ts";
import { addressesOf, holdersOf, lowerOf } from "../pnl/pnl-lines.ts";
import type { PriceService } from "../price/price.service.ts";
import type { AutosellPassRepository } from "./autosell-pass.repository.ts";
import type { needsOf, TokenReading } from "./autosell-triggers.ts";

const WHOLE = 10n ** 18n;
/** four.meme's fixed supply (and the local launchpad's): a billion tokens. */
const TOKEN_SUPPLY = 1_000_000_000n * WHOLE;
/** Tokens per multicall. */
const MULTICALL_TOKENS = 500;
const COSTS = new Set<PnlKind>(PNL_COST_KINDS);

export type Needs = ReturnType<typeof needsOf>;

/** A token's outside flows as this process keeps them, and how far it and the database read. */
interface FlowCache {
  scannedTo: bigint;
  /** The cursor the database holds (at most `scannedTo`). */
  persisted: bigint;
  flows: Array<[bigint, bigint]>;
}

/**
 * Every input the armed rules of many tokens read at one block, in a fixed number of requests
 * whatever the number of rules: the head block, one multicall per 500 tokens (price, funds,
 * launch time), one event read for the outside trading of every token a sniper guard watches,
 * the ledger's sums in one statement, and one exit simulation per token whose rules need it
 * (the one the P&L page shares, cached per block).
 */
export class AutosellReader {
  constructor(
    private readonly chain: ChainContext,
    private readonly pnl: PnlRepository,
    private readonly repo: AutosellPassRepository,
    private readonly prices: PriceService,
  ) {}

  async read(
    bundles: ReadonlyMap<string, PnlBundle>,
    needs: ReadonlyMap<string, Needs>,
  ): Promise<{ block: bigint; readings: Map<string, TokenReading> }> {
    const { chain } = this;
    const helper = chain.trade?.helper;
    if (!helper || !chain.launchpad) throw new Error("trading is not configured here");
    const tokens = [...bundles.keys()];
    const head = await chain.client.getBlock();
    // Reads shared per block (the exit simulation) must not answer from an earlier head.
    chain.reads.observe(head.number);
    const want = (pick: (n: Needs) => boolean) => tokens.filter((t) => pick(needs.get(t) as Needs));
    const [infos, bnbUsd, sums, worths, outside] = await Promise.all([
      this.infos(helper, tokens).then(async (infos) => {
        // The app creates tokens that start trading at once (launchTime 0): the launch's block
        // time then, read once per token.
        await Promise.all(
          want((n) => n.time).map(async (token) => {
            const info = infos.get(token);
            if (info && info.launchTime === 0n)
              infos.set(token, {
                ...info,
                launchTime: await this.launchTimeOf(token, bundles.get(token) as PnlBundle),
              });
          }),
        );
        return infos;
      }),
      this.prices
        .bnbUsd()
        .then((p) => p.price)
        .catch(() => null),
      this.pnl.sumsOf(want((n) => n.ledger)),
      Promise.all(
        want((n) => n.exit).map(async (token) => {
          const holders = holdersOf(bundles.get(token) as PnlBundle).map((h) => h.address);
          return [token, await bundleWorth(chain, token, holders)] as const;
        }),
      ).then((pairs) => new Map(pairs)),
      this.outside(
        bundles,
        want((n) => n.outside),
        head.number,
      ),
    ]);
    const readings = new Map<string, TokenReading>();
    for (const token of tokens) {
      const info = infos.get(token);
      if (!info) continue;
      const rows = sums.get(token);
      const cost = rows?.reduce((s, r) => (COSTS.has(r.kind) ? s + BigInt(r.bnb) : s), 0n) ?? 0n;
      const bought =
        rows?.reduce(
          (s, r) => (r.kind === "buy" || r.kind === "dev-buy" ? s + BigInt(r.tokens) : s),
          0n,
        ) ?? 0n;
      const averageCostWei = bought > 0n ? (cost * WHOLE) / bought : null;
      const worth = worths.get(token);
      const tokensHeld = worth
        ? [...worth.holdings.values()].reduce((s, h) => s + h.token, 0n)
        : 0n;
      const flows = outside.get(token) ?? [];
      const within = new Map<number, bigint>();
      for (const n of (needs.get(token) as Needs).windows)
        within.set(
          n,
          flows.reduce((s, [block, net]) => (block > head.number - BigInt(n) ? s + net : s), 0n),
        );
      readings.set(token, {
        block: head.number,
        blockTime: head.timestamp,
        launchTime: info.launchTime,
        priceWei: info.lastPrice,
        marketCapWei: (info.lastPrice * TOKEN_SUPPLY) / WHOLE,
        bnbUsd,
        curvePercent: info.liquidityAdded
          ? 100
          : info.maxFunds > 0n
            ? Number((info.funds * 10_000n) / info.maxFunds) / 100
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
      });
    }
    return { block: head.number, readings };
  }

  /** Launch blocks' times by token: they never change. */
  private readonly launchTimes = new Map<string, bigint>();
  /** Each token's outside flows and how far its events were read, by this process. */
  private readonly flowCache = new Map<string, FlowCache>();

  private async launchTimeOf(token: string, bundle: PnlBundle): Promise<bigint> {
    const known = this.launchTimes.get(token);
    if (known !== undefined) return known;
    const block = await this.chain.client.getBlock({ blockNumber: bundle.launchBlock });
    this.launchTimes.set(token, block.timestamp);
    return block.timestamp;
  }

  private async infos(helper: Address, tokens: string[]) {
    const found = new Map<string, NonNullable<Awaited<ReturnType<typeof getTokenInfos>>[number]>>();
    const chunks = [];
    for (let i = 0; i < tokens.length; i += MULTICALL_TOKENS)
      chunks.push(tokens.slice(i, i + MULTICALL_TOKENS));
    await Promise.all(
      chunks.map(async (chunk) => {
        const infos = await getTokenInfos(this.chain.client, {
          helper,
          tokens: chunk.map((t) => getAddress(t)),
        });
        chunk.forEach((token, i) => {
          const info = infos[i];
          if (info) found.set(token, info);
        });
      }),
    );
    return found;
  }

  /**
   * Outside trading of `tokens` up to `head`: reads the launchpad's TokenPurchase / TokenSale
   * events since the earliest token's last scan (a new one from its launch) in one request, and
   * keeps each block's net BNB bought by wallets that are not the bundle's. Flows are appended
   * to the database before this process's cursor moves past them and kept here between passes;
   * the database's cursor is written with new flows (or every 1,000 blocks), so another process,
   * or this one after a restart, reads again at most what it had not kept (the same rows).
   */
  private async outside(
    bundles: ReadonlyMap<string, PnlBundle>,
    tokens: string[],
    head: bigint,
  ): Promise<Map<string, Array<[bigint, bigint]>>> {
    if (tokens.length === 0) return new Map();
    const unknown = tokens.filter((t) => !this.flowCache.has(t));
    if (unknown.length > 0) {
      const [scanned, flows] = await Promise.all([
        this.repo.scans(unknown),
        this.repo.flows(unknown),
      ]);
      for (const token of unknown) {
        const scannedTo = scanned.get(token) ?? (bundles.get(token) as PnlBundle).launchBlock - 1n;
        this.flowCache.set(token, {
          scannedTo,
          persisted: scannedTo,
          flows: flows.get(token) ?? [],
        });
      }
    }
    const cached = (token: string) => this.flowCache.get(token) as FlowCache;
    const fromOf = (token: string) => cached(token).scannedTo + 1n;
    const from = tokens.map(fromOf).reduce(lowerOf, head + 1n);
    if (from <= head) {
      const logs = await this.chain.client.getLogs({
        address: this.chain.launchpad as Address,
        fromBlock: from,
        toBlock: head,
      });
      const events = parseEventLogs({
        abi: LaunchpadManagerArtifact.abi,
        logs,
        eventName: ["TokenPurchase", "TokenSale"],
      });
      const ours = new Map(
        tokens.map((t) => [t, new Set(addressesOf(bundles.get(t) as PnlBundle))]),
      );
      const net = new Map<string, { token: string; block: bigint; netWei: bigint }>();
      for (const event of events) {
        const { token, account, cost, fee } = event.args as {
          token: Address;
          account: Address;
          cost: bigint;
          fee: bigint;
        };
        const t = token.toLowerCase();
        const own = ours.get(t);
        if (!own || own.has(account.toLowerCase())) continue;
        if (event.blockNumber === null || event.blockNumber < fromOf(t)) continue;
        const key = `${t}:${event.blockNumber}`;
        const entry = net.get(key) ?? { token: t, block: event.blockNumber, netWei: 0n };
        // BNB the buyer paid (its fee included) less what a seller got (its fee taken).
        entry.netWei += event.eventName === "TokenPurchase" ? cost + fee : fee - cost;
        net.set(key, entry);
      }
      const found = [...net.values()];
      const stale = tokens.filter((t) => head - cached(t).persisted >= 1_000n);
      const moved = found.length > 0 ? tokens : stale;
      if (moved.length > 0) await this.repo.recordFlows(found, moved, head);
      for (const token of moved) cached(token).persisted = head;
      for (const token of tokens) {
        const entry = cached(token);
        for (const f of found) if (f.token === token) entry.flows.push([f.block, f.netWei]);
        entry.scannedTo = head;
      }
    }
    return new Map(tokens.map((t) => [t, cached(t).flows]));
  }
}
