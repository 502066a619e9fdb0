import {
  PNL_COST_KINDS,
  PNL_CSV_COLUMNS,
  type PnlDrift,
  type PnlKind,
  type PnlLine,
  type PnlPoint,
  type PnlRole,
  type PnlTotals,
  type PnlWallet,
} from "@bundler/shared";
import { formatEther, getAddress } from "viem";
import type { LedgerRow, LedgerSum, PnlBundle } from "./pnl.repository.ts";
import type { BundleWorth } from "./pnl-exit.ts";
import { markOf } from "./pnl-exit.ts";
import { holdersOf, lowerOf } from "./pnl-lines.ts";

const COSTS = new Set<PnlKind>(PNL_COST_KINDS);
/** Roles whose lines are a wallet's own (the rest are the totals' shared lines). */
const OWN = new Set<PnlRole>(["developer", "bundle"]);
/** Paid before the launch: already out of the opening balance, so not in a reconciliation. */
const BEFORE_LAUNCH = new Set<PnlKind>(["launch-fee", "dispersal-cost", "opening"]);
/** Drift over this many parts in 1,000 of the ledger's figure is flagged (0.1%). */
const DRIFT_PER_MILLE = 1n;

const sum = (
  rows: readonly LedgerSum[],
  pick: (row: LedgerSum) => boolean,
  field: "bnb" | "tokens" = "bnb",
) => rows.reduce((total, row) => (pick(row) ? total + BigInt(row[field]) : total), 0n);
/** Rows by wallet, grouped once per ledger read. */
const grouped = new WeakMap<readonly LedgerSum[], Map<string, LedgerSum[]>>();
const byWallet = (rows: readonly LedgerSum[]): Map<string, LedgerSum[]> => {
  let map = grouped.get(rows);
  if (!map) {
    map = new Map();
    for (const row of rows) {
      const list = map.get(row.wallet);
      if (list) list.push(row);
      else map.set(row.wallet, [row]);
    }
    grouped.set(rows, map);
  }
  return map;
};
const abs = (v: bigint) => (v < 0n ? -v : v);
/** `total × part / whole`, 0 when nothing was bought. */
const share = (total: bigint, part: bigint, whole: bigint) =>
  whole > 0n ? (total * part) / whole : 0n;

/**
 * The bundle's figures from its ledger and its worth now. Realized P&L is proceeds less the
 * average cost of the tokens sold (every cost, shared lines included, over every token bought);
 * unrealized (exit) is the exit value less the average cost of the tokens still held.
 */
export const totalsOf = (rows: readonly LedgerSum[], worth: BundleWorth): PnlTotals => {
  const cost = sum(rows, (r) => COSTS.has(r.kind));
  const proceeds = sum(rows, (r) => r.kind === "sale");
  const bought = sum(rows, (r) => r.kind === "buy" || r.kind === "dev-buy", "tokens");
  const sold = sum(rows, (r) => r.kind === "sale", "tokens");
  const held = bought > sold ? bought - sold : 0n;
  const tokensNow = [...worth.holdings.values()].reduce((s, h) => s + h.token, 0n);
  return {
    costWei: cost.toString(),
    proceedsWei: proceeds.toString(),
    emptiedWei: sum(rows, (r) => r.kind === "empty").toString(),
    realizedWei: (proceeds - share(cost, sold, bought)).toString(),
    markWei: markOf(worth.price, tokensNow).toString(),
    exitWei: worth.exitTotal.toString(),
    unrealizedExitWei: (
      worth.exitTotal - (bought > 0n ? share(cost, held, bought) : cost)
    ).toString(),
  };
};

/** The developer's row (first) and each bundle wallet's: only what that wallet paid and received. */
export const walletsOf = (
  bundle: PnlBundle,
  rows: readonly LedgerSum[],
  worth: BundleWorth,
): PnlWallet[] =>
  holdersOf(bundle).map(({ address, role }) => {
    const own = (byWallet(rows).get(address) ?? []).filter((r) => OWN.has(r.role));
    return {
      address: getAddress(address),
      role,
      costWei: sum(own, (r) => COSTS.has(r.kind)).toString(),
      proceedsWei: sum(own, (r) => r.kind === "sale").toString(),
      emptiedWei: sum(own, (r) => r.kind === "empty").toString(),
      tokens: (worth.holdings.get(address)?.token ?? 0n).toString(),
      exitWei: (worth.exit.get(address) ?? 0n).toString(),
      taxTokens: sum(own, (r) => r.kind === "tax", "tokens").toString(),
    };
  });

/**
 * The shared cost lines (creation fee, tips and their gas, launch fee, dispersal costs), one
 * per kind, role and payer; the dispersal's hops add up to one line.
 */
export const sharedLinesOf = (rows: readonly LedgerSum[]): PnlLine[] => {
  const groups = new Map<string, LedgerSum[]>();
  for (const row of rows) {
    if (OWN.has(row.role) || !COSTS.has(row.kind)) continue;
    const id = row.kind === "dispersal-cost" ? row.kind : `${row.kind}:${row.role}:${row.wallet}`;
    const group = groups.get(id);
    if (group) group.push(row);
    else groups.set(id, [row]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as LedgerSum;
    const payers = new Set(group.map((r) => r.wallet));
    const txs = new Set(group.map((r) => r.txHash));
    return {
      kind: first.kind,
      role: first.role,
      address: payers.size === 1 ? getAddress(first.wallet) : null,
      wei: sum(group, () => true).toString(),
      txHash: txs.size === 1 ? first.txHash : null,
      block: group.reduce((min, r) => lowerOf(min, r.blockNumber), first.blockNumber).toString(),
    };
  });
};

/**
 * Each wallet's reconciliation: what the ledger says it holds (its balance before the launch,
 * less everything it paid since, plus its sales and the dispersals that topped it up after the
 * launch, less its empties) against the chain's balance.
 */
export const driftOf = (
  bundle: PnlBundle,
  rows: readonly LedgerSum[],
  worth: BundleWorth,
  inFlight: ReadonlySet<string> = new Set(),
): PnlDrift[] => {
  // Before the launch's opening lines are in, no wallet's ledger says anything yet.
  const opened = rows.some((r) => r.kind === "opening");
  return holdersOf(bundle).map(({ address }) => {
    const mine = byWallet(rows).get(address) ?? [];
    const opening = sum(mine, (r) => r.kind === "opening");
    const paid = sum(mine, (r) => COSTS.has(r.kind) && !BEFORE_LAUNCH.has(r.kind));
    const ledger =
      opening -
      paid +
      sum(mine, (r) => r.kind === "sale" || r.kind === "funding") -
      sum(mine, (r) => r.kind === "empty");
    const chain = worth.holdings.get(address)?.bnb ?? 0n;
    const diff = abs(chain - ledger);
    const base = abs(ledger) > 0n ? abs(ledger) : 1n;
    const pending = !opened || inFlight.has(address);
    return {
      address: getAddress(address),
      ledgerWei: ledger.toString(),
      chainWei: chain.toString(),
      percent: Number((diff * 10_000n) / base) / 100,
      pending,
      flagged: !pending && diff * 1000n > base * DRIFT_PER_MILLE,
    };
  });
};

/** The chart: the running cost and proceeds after each block with ledger lines, and exit values. */
export const historyOf = (
  rows: readonly LedgerRow[],
  marks: Map<bigint, bigint>,
  exitNow: bigint,
): PnlPoint[] => {
  const points: PnlPoint[] = [];
  let cost = 0n;
  let proceeds = 0n;
  for (const row of rows) {
    if (row.kind === "opening") continue;
    if (COSTS.has(row.kind)) cost += BigInt(row.bnb);
    if (row.kind === "sale") proceeds += BigInt(row.bnb);
    const last = points.at(-1);
    const point = {
      block: row.blockNumber.toString(),
      at: row.blockTime.toISOString(),
      costWei: cost.toString(),
      proceedsWei: proceeds.toString(),
      exitWei: marks.get(row.blockNumber)?.toString() ?? null,
    };
    if (last?.block === point.block) points[points.length - 1] = point;
    else points.push(point);
  }
  const last = points.at(-1);
  if (last) last.exitWei = exitNow.toString();
  return points;
};

const csvCell = (value: string) =>
  /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;

/** The ledger as CSV: a header row, then a line per entry (BNB in wei and in BNB). */
export const csvOf = (rows: readonly LedgerRow[]): string =>
  [
    PNL_CSV_COLUMNS.join(","),
    ...rows.map((r) =>
      [
        r.blockNumber.toString(),
        r.blockTime.toISOString(),
        r.txHash,
        String(r.logIndex),
        r.kind,
        r.role,
        getAddress(r.wallet),
        r.bnb,
        formatEther(BigInt(r.bnb)),
        r.tokens,
      ]
        .map(csvCell)
        .join(","),
    ),
    "",
  ].join("\n");
