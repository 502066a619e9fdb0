import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { launches, pnlLedger, pnlMarks } from "../../db/schema.ts";

export type LedgerRow = typeof pnlLedger.$inferSelect;
export type NewLedgerRow = typeof pnlLedger.$inferInsert;
/**
 * Ledger lines added up per wallet, role and kind: what the P&L figures need (a ledger row is
 * one too). `txHash` is the one transaction's, null when several; `blockNumber` the first.
 */
export type LedgerSum = Pick<
  LedgerRow,
  "wallet" | "role" | "kind" | "bnb" | "tokens" | "blockNumber"
> & {
  txHash: string | null;
};

/** What the transactions the app sent for bundles say they are for. */
export const BUNDLE_TX_PURPOSES = [
  "launch",
  "delayed-buy",
  "bundle-approve",
  "bundle-sell",
  "bundle-empty",
] as const;

/** Work the pass found: a launch with no opening lines yet, or a final transaction not in the ledger. */
export type PendingWork =
  | { type: "launch"; token: string; blockNumber: bigint }
  | {
      type: "tx";
      token: string;
      txHash: string;
      purpose: string;
      from: string;
      value: bigint;
      status: "mined" | "reverted";
      blockNumber: bigint;
    }
  /** A transfer of the owner's dispersal that delivered BNB to a wallet after its launch. */
  | {
      type: "funding";
      token: string;
      txHash: string;
      to: string;
      value: bigint;
      blockNumber: bigint;
    };

/** A launched bundle as its ledger needs it: who its wallets are and what it was launched from. */
export interface PnlBundle {
  /** Lower case. */
  token: string;
  ownerId: string;
  draftId: string;
  /** The launch's ticker (for the words of a sale's reason). */
  ticker?: string;
  launchBlock: bigint;
  /** Lower case, in the draft's order. */
  wallets: string[];
  deployer: string | null;
  /** Lower case; the deployer when the draft has no tip payer of its own. */
  tipPayer: string | null;
}

/** A dispersal transfer that carried a leg to one of a bundle's wallets: its gas. */
export interface DispersalHop {
  txHash: string;
  from: string;
  fee: bigint;
  blockNumber: bigint;
}

/** The ledger pass has work only once a bundle was launched here. */
export const pnlDue = (): SQL => sql`exists (select 1 from ${launches})`;

const lower = (value: string | null | undefined) => (value ? value.toLowerCase() : null);

/**
 * The P&L ledger's SQL. Reads the tables of the launches, drafts, transactions, payments and
 * dispersals it is built from (one statement each, never per row) and writes only its own two.
 */
export class PnlRepository {
  constructor(readonly db: Db) {}

  /**
   * The pass's one check per block: launches from `fromBlock` on with no opening lines yet, and
   * every final transaction sent for a launched bundle (from `fromBlock` on) that the ledger does
   * not hold. Nothing at all when nothing changed. A transaction is a bundle's only when the
   * launch's owner sent it, and a sell, approval or empty only from one of the bundle's own
   * addresses: a bumper's withdrawal on the same token (another user's, or the owner's own
   * bumper wallets) names the token as its subject too, and is none of the bundle's P&L.
   */
  async pending(fromBlock: bigint): Promise<PendingWork[]> {
    // Spelled as the partial index chain_txs_bundle_block_idx is, so the planner uses it.
    const purposes = sql.raw(BUNDLE_TX_PURPOSES.map((p) => `'${p}'`).join(", "));
    const { rows } = await this.db.execute(sql`
      select 'launch' as type, lower(l.token_address) as token, l.block_number as block,
          null as tx_hash, null as purpose, null as "from", null as value, null as status
        from launches l
        where l.block_number >= ${fromBlock} and not exists (
          select 1 from pnl_ledger p where p.token = lower(l.token_address) and p.kind = 'opening')
      union all
      select 'tx', lower(coalesce(ls.token_address, lj.token_address, ld.token_address)),
          c.block_number, c.tx_hash, c.purpose, c."from", c.value::text, c.status
        from chain_txs c
        left join launches ls on c.purpose in ('bundle-sell', 'bundle-approve', 'bundle-empty')
          and lower(ls.token_address) = lower(c.subject) and ls.owner_id = c.owner_id
        left join drafts ds on ds.id = ls.draft_id
        left join launch_jobs j on c.purpose = 'launch' and j.id::text = c.subject
        left join launches lj on lj.draft_id = j.draft_id and lj.owner_id = c.owner_id
        left join launches ld on c.purpose = 'delayed-buy' and ld.draft_id::text = c.subject
          and ld.owner_id = c.owner_id
        where c.block_number >= ${fromBlock} and c.status in ('mined', 'reverted')
          and c.purpose in (${purposes})
          and coalesce(ls.token_address, lj.token_address, ld.token_address) is not null
          and (ls.token_address is null or lower(c."from") = lower(ds.deployer_address)
            or lower(c."from") = lower(ds.wallet_config->>'tipPayer') or exists (
              select 1 from jsonb_array_elements(ds.wallet_config->'wallets') w
                where lower(w->>'address') = lower(c."from")))
          and not exists (select 1 from pnl_ledger p where p.tx_hash = c.tx_hash)
      union all
      select 'funding', lower(l.token_address), c.block_number, c.tx_hash, null,
          lower(c."to"), c.value::text, c.status
        from chain_txs c
        join dispersals d on d.id::text = split_part(c.key, ':', 2)
        join dispersal_legs g on g.dispersal_id = d.id
          and g.index::text = split_part(c.key, ':', 3) and lower(g.destination) = lower(c."to")
        join launches l on l.owner_id = d.owner_id and l.block_number <= c.block_number
        join drafts dr on dr.id = l.draft_id
        where c.block_number >= ${fromBlock} and c.purpose = 'dispersal-hop'
          and c.status = 'mined' and c.key like 'dispersal:%'
          and (lower(dr.deployer_address) = lower(c."to") or exists (
            select 1 from jsonb_array_elements(dr.wallet_config->'wallets') w
              where lower(w->>'address') = lower(c."to")))
          and not exists (select 1 from pnl_ledger p
            where p.token = lower(l.token_address) and p.tx_hash = c.tx_hash and p.kind = 'funding')
      order by block`);
    return (rows as Array<Record<string, unknown>>).map((row): PendingWork => {
      if (row.type === "funding")
        return {
          type: "funding",
          token: String(row.token),
          txHash: String(row.tx_hash),
          to: String(row.from),
          value: BigInt(String(row.value)),
          blockNumber: BigInt(String(row.block)),
        };
      return row.type === "launch"
        ? { type: "launch", token: String(row.token), blockNumber: BigInt(String(row.block)) }
        : {
            type: "tx",
            token: String(row.token),
            txHash: String(row.tx_hash),
            purpose: String(row.purpose),
            from: String(row.from).toLowerCase(),
            value: BigInt(String(row.value)),
            status: row.status as "mined" | "reverted",
            blockNumber: BigInt(String(row.block)),
          };
    });
  }

  /**
   * The launched bundle of `token` (any case), with its draft's wallets; only `ownerId`'s when
   * given (another user's reads as absent).
   */
  async bundle(token: string, ownerId?: string): Promise<PnlBundle | undefined> {
    return (await this.bundles([token], ownerId)).get(token.toLowerCase());
  }

  /** `bundle` for many tokens in one statement, by lower-case token (absent ones left out). */
  async bundles(tokens: readonly string[], ownerId?: string): Promise<Map<string, PnlBundle>> {
    const wanted = [...new Set(tokens.map((t) => t.toLowerCase()))];
    if (wanted.length === 0) return new Map();
    const { rows } = await this.db.execute(sql`
      select distinct on (lower(l.token_address)) lower(l.token_address) as token, l.owner_id,
          l.draft_id, l.ticker, l.block_number, d.deployer_address, d.wallet_config
        from launches l join drafts d on d.id = l.draft_id
        where lower(l.token_address) = any(${`{${wanted.join(",")}}`}::text[])
          ${ownerId ? sql`and l.owner_id = ${ownerId}` : sql``}
        order by lower(l.token_address), l.created_at`);
    const found = new Map<string, PnlBundle>();
    for (const row of rows as Array<Record<string, unknown>>) {
      const config = (row.wallet_config ?? {}) as {
        wallets?: Array<{ address: string }>;
        tipPayer?: string;
      };
      const deployer = lower(row.deployer_address as string | null);
      const token = String(row.token);
      found.set(token, {
        token,
        ownerId: String(row.owner_id),
        draftId: String(row.draft_id),
        ticker: String(row.ticker),
        launchBlock: BigInt(String(row.block_number)),
        wallets: (config.wallets ?? []).map((w) => w.address.toLowerCase()),
        deployer,
        tipPayer: lower(config.tipPayer) ?? deployer,
      });
    }
    return found;
  }

  /** The launch's other bundles' blocks (a launch split over the cap): where their tips are. */
  async launchBlocks(draftId: string): Promise<bigint[]> {
    const { rows } = await this.db.execute(sql`
      select distinct c.block_number from chain_txs c join launch_jobs j on j.id::text = c.subject
        where c.purpose = 'launch' and j.draft_id = ${draftId} and c.status in ('mined', 'reverted')
          and c.block_number is not null`);
    return (rows as Array<{ block_number: unknown }>).map((r) => BigInt(String(r.block_number)));
  }

  /** The draft's paid launch fee: its amount, who paid it and in which transaction. */
  async launchFee(
    draftId: string,
  ): Promise<
    | { amount: bigint; txHash: string; from: string; blockNumber: bigint; blockTime: Date }
    | undefined
  > {
    const { rows } = await this.db.execute(sql`
      select p.amount::text as amount, p.paid_block, dep.tx_hash, dep."from", dep.block_number,
          dep.block_time
        from payments p join payment_deposits dep on dep.payment_id = p.id
        where p.draft_id = ${draftId} and p.kind = 'launch_fee' and p.status = 'paid'
        order by dep.block_number, dep.tx_hash limit 1`);
    const row = rows[0] as Record<string, unknown> | undefined;
    if (!row) return undefined;
    return {
      amount: BigInt(String(row.amount)),
      txHash: String(row.tx_hash),
      from: String(row.from).toLowerCase(),
      blockNumber: BigInt(String(row.paid_block ?? row.block_number)),
      blockTime: row.block_time instanceof Date ? row.block_time : new Date(String(row.block_time)),
    };
  }

  /**
   * The gas of every transfer of the owner's dispersals along a leg that ended at one of
   * `wallets` (its hops and the last transfer): what funding those wallets cost.
   */
  async dispersalHops(ownerId: string, wallets: string[]): Promise<DispersalHop[]> {
    if (wallets.length === 0) return [];
    const { rows } = await this.db.execute(sql`
      select c.tx_hash, c."from", c.fee::text as fee, c.block_number
        from dispersal_legs g
        join dispersals d on d.id = g.dispersal_id
        join chain_txs c on c.key like 'dispersal:' || d.id::text || ':' || g.index::text || ':%'
        where d.owner_id = ${ownerId} and lower(g.destination) = any(${`{${wallets.join(",")}}`}::text[])
          and c.purpose = 'dispersal-hop' and c.status in ('mined', 'reverted') and c.fee is not null`);
    return (rows as Array<Record<string, unknown>>).map((r) => ({
      txHash: String(r.tx_hash),
      from: String(r.from).toLowerCase(),
      fee: BigInt(String(r.fee)),
      blockNumber: BigInt(String(r.block_number)),
    }));
  }

  /** Appends lines; one already there (same transaction, log, kind and wallet) is left alone. */
  async append(
    lines: NewLedgerRow[],
    mark?: { token: string; blockNumber: bigint; exitWei: bigint },
  ) {
    // One statement may not name a row twice (a launch's transaction read from its block and
    // from the transaction manager's record both).
    const rows = [
      ...new Map(
        lines.map((r) => [`${r.token}:${r.txHash}:${r.logIndex}:${r.kind}:${r.wallet}`, r]),
      ).values(),
    ];
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 500)
        await tx
          .insert(pnlLedger)
          .values(rows.slice(i, i + 500))
          .onConflictDoNothing();
      if (mark)
        await tx
          .insert(pnlMarks)
          .values({ ...mark, exitWei: mark.exitWei.toString() })
          .onConflictDoNothing();
    });
  }

  /** A bundle's whole ledger, oldest first. */
  ledger(token: string): Promise<LedgerRow[]> {
    return this.db
      .select()
      .from(pnlLedger)
      .where(eq(pnlLedger.token, token.toLowerCase()))
      .orderBy(asc(pnlLedger.blockNumber), asc(pnlLedger.txHash), asc(pnlLedger.logIndex));
  }

  /** A bundle's ledger added up per wallet, role and kind, in one statement. */
  async sums(token: string): Promise<LedgerSum[]> {
    return (await this.sumsOf([token])).get(token.toLowerCase()) ?? [];
  }

  /** `sums` for many bundles in one statement, by lower-case token. */
  async sumsOf(tokens: readonly string[]): Promise<Map<string, LedgerSum[]>> {
    const wanted = [...new Set(tokens.map((t) => t.toLowerCase()))];
    const found = new Map<string, LedgerSum[]>(wanted.map((t) => [t, []]));
    if (wanted.length === 0) return found;
    const { rows } = await this.db.execute(sql`
      select token, wallet, role, kind, sum(bnb)::text as bnb, sum(tokens)::text as tokens,
          min(block_number)::text as block,
          case when count(distinct tx_hash) = 1 then min(tx_hash) end as tx_hash
        from pnl_ledger where token = any(${`{${wanted.join(",")}}`}::text[])
        group by token, wallet, role, kind`);
    for (const r of rows as Array<Record<string, unknown>>)
      found.get(String(r.token))?.push({
        wallet: String(r.wallet),
        role: r.role as LedgerSum["role"],
        kind: r.kind as LedgerSum["kind"],
        bnb: String(r.bnb),
        tokens: String(r.tokens),
        blockNumber: BigInt(String(r.block)),
        txHash: r.tx_hash === null ? null : String(r.tx_hash),
      });
    return found;
  }

  /**
   * The wallets with a transaction sent for this bundle that is still open, or final and not in
   * the ledger yet: their balances are ahead of the ledger for a few blocks. Only the owner's
   * (another user's bumper on the token sends with it as subject too).
   */
  async inFlight(token: string, ownerId: string): Promise<Set<string>> {
    const { rows } = await this.db.execute(sql`
      select distinct lower(c."from") as wallet from chain_txs c
        where c.subject = ${token.toLowerCase()} and c.owner_id = ${ownerId}
          and c.purpose in ('bundle-approve', 'bundle-sell', 'bundle-empty')
          and (c.status in ('signed', 'sent') or (c.status in ('mined', 'reverted')
            and not exists (select 1 from pnl_ledger p where p.tx_hash = c.tx_hash)))`);
    return new Set((rows as Array<{ wallet: string }>).map((r) => r.wallet));
  }

  /** The exit values the pass recorded, by block. */
  async marks(token: string): Promise<Map<bigint, bigint>> {
    const rows = await this.db
      .select()
      .from(pnlMarks)
      .where(and(eq(pnlMarks.token, token.toLowerCase())));
    return new Map(rows.map((r) => [r.blockNumber, BigInt(r.exitWei)]));
  }
}
