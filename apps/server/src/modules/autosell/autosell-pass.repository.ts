import {
  AUTOSELL_WAVE_ATTEMPTS,
  type AutosellAction,
  type AutosellExecution,
  type AutosellReading,
  type AutosellTrigger,
} from "@bundler/shared";
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

/** An armed rule as the per-block pass reads it, with the ladder tiers it already fired. */
export interface ArmedRule {
  id: string;
  ownerId: string;
  token: string;
  trigger: AutosellTrigger | null;
  action: AutosellAction;
  execution: AutosellExecution;
  peakWei: bigint | null;
  armedBlock: bigint | null;
  firedTiers: number[];
  /** The signature of the last reading written (what it said; null before the first). */
  readingSig: string | null;
  /** The rule's version as read: a decision or reading is written only on the same version. */
  version: number;
}

/** A firing whose sales are not all sent: the next wave goes at `nextBlock` or later. */
export interface SellingFiring {
  ruleId: string;
  ownerId: string;
  token: string;
  tier: number;
  percent: string;
  wallets: string[];
  wavesSent: number;
  nextBlock: bigint;
  transactions: string[];
  /** Tries of the next wave that failed so far. */
  attempts: number;
  execution: AutosellExecution;
}

export interface Decision {
  ruleId: string;
  /** The rule's version the pass read: an edit since then leaves the decision unmade. */
  version: number;
  tier: number;
  block: bigint;
  reading: AutosellReading;
  percent: string;
  wallets: string[];
  /** The rule has nothing left to fire once this is recorded (its last tier, or no ladder). */
  last: boolean;
}

/** A sent firing's sale whose bundle did not land in its window (its row dropped). */
const DROPPED_SALE = sql`exists (select 1 from jsonb_array_elements_text(f.transactions) h(hash)
    join chain_txs t on t.tx_hash = h.hash
    where t.status = 'dropped' and t.purpose = 'bundle-sell')`;

/**
 * The pass has work while a rule is armed, a firing is still selling, or a sent firing's sale
 * did not land.
 */
export const autosellDue = (): SQL =>
  sql`(exists (select 1 from autosell_rules where state = 'armed')
    or exists (select 1 from autosell_firings where state = 'selling')
    or exists (select 1 from autosell_firings f where f.state = 'sent' and ${DROPPED_SALE}))`;

const textArray = (values: readonly string[]) => `{${values.join(",")}}`;

/**
 * What a firing stopped by a cancel says, over its transactions (a jsonb array): no further
 * waves, and what was sent stands.
 */
export const stoppedWords = (transactions: SQL): SQL =>
  sql`'Stopped by a cancel: no further waves; ' || case jsonb_array_length(${transactions})
    when 0 then 'nothing had been sent'
    when 1 then 'the 1 transaction already sent stands (what it sold stays sold)'
    else 'the ' || jsonb_array_length(${transactions}) || ' transactions already sent stand (what they sold stays sold)' end`;

/** The auto-sell pass's SQL: one statement per step, never one per rule. */
export class AutosellPassRepository {
  constructor(readonly db: Db) {}

  async armed(): Promise<ArmedRule[]> {
    const { rows } = await this.db.execute(sql`
      select r.id, r.owner_id, r.token, r.trigger, r.action, r.execution,
          r.reading->>'sig' as sig, r.peak_wei::text as peak,
          r.armed_block::text as armed_block, r.version,
          coalesce(array_agg(f.tier) filter (where f.tier is not null), '{}') as fired
        from autosell_rules r left join autosell_firings f on f.rule_id = r.id
        where r.state = 'armed'
        group by r.id`);
    return (rows as Array<Record<string, unknown>>).map((r) => ({
      id: String(r.id),
      ownerId: String(r.owner_id),
      token: String(r.token),
      trigger: (r.trigger ?? null) as AutosellTrigger | null,
      action: r.action as AutosellAction,
      execution: r.execution as AutosellExecution,
      peakWei: r.peak === null ? null : BigInt(String(r.peak)),
      armedBlock: r.armed_block === null ? null : BigInt(String(r.armed_block)),
      firedTiers: (r.fired as Array<number | string>).map(Number),
      readingSig: (r.sig ?? null) as string | null,
      version: Number(r.version),
    }));
  }

  /**
   * Rules' new readings, trailing highs and arming blocks, in one statement per 500 rules (the
   * pass writes only the rules whose reading or high changed).
   */
  async saveReadings(
    updates: ReadonlyArray<{
      id: string;
      /** The version the pass read: a rule edited since keeps its (cleared) tracking. */
      version: number;
      /** The reading, with the signature the next pass compares its own with. */
      reading: AutosellReading & { sig: string };
      peakWei: bigint | null;
      armedBlock: bigint;
    }>,
  ): Promise<void> {
    for (let i = 0; i < updates.length; i += 500) {
      const values = sql.join(
        updates
          .slice(i, i + 500)
          .map(
            (u) =>
              sql`(${u.id}::uuid, ${u.version}::int, ${JSON.stringify(u.reading)}::jsonb, ${u.peakWei?.toString() ?? null}::numeric, ${u.armedBlock.toString()}::bigint)`,
          ),
        sql`, `,
      );
      await this.db.execute(sql`
        update autosell_rules r set reading = v.reading, peak_wei = v.peak,
            armed_block = coalesce(r.armed_block, v.armed)
          from (values ${values}) as v(id, version, reading, peak, armed)
          where r.id = v.id and r.version = v.version and r.state = 'armed'`);
    }
  }

  /**
   * Records a firing under the rule's row lock, before anything is signed: only while the rule
   * is armed at the version the pass read (an edit since then is read again next block) and
   * only once per (rule, tier), so two processes, or a pass run twice, record it once. The rule
   * turns "fired" with its last tier. Answers whether this call recorded it.
   */
  async decide(d: Decision): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.execute(
        sql`select state, version from autosell_rules where id = ${d.ruleId} for update`,
      );
      const rule = rows[0] as { state?: string; version?: number | string } | undefined;
      if (rule?.state !== "armed" || Number(rule.version) !== d.version) return false;
      const inserted = await tx.execute(sql`
        insert into autosell_firings (rule_id, tier, block_number, reading, percent, wallets, next_block)
          values (${d.ruleId}, ${d.tier}, ${d.block.toString()}, ${JSON.stringify(d.reading)}::jsonb,
            ${d.percent}, ${JSON.stringify(d.wallets)}::jsonb, ${d.block.toString()})
          on conflict do nothing returning rule_id`);
      if (inserted.rows.length === 0) return false;
      if (d.last)
        await tx.execute(
          sql`update autosell_rules set state = 'fired', updated_at = now() where id = ${d.ruleId}`,
        );
      return true;
    });
  }

  /**
   * Sent firings a sale of which did not land (its bundle's window passed: a builder took it
   * and did not include it, or a lagging node's head made its window too short) sell again
   * from their first wave at the next block, under the same request keys: a wallet whose sale
   * landed answers it again, one whose sale dropped sells as a new attempt (never twice).
   * The dropped transactions leave the firing's list. Each time is an attempt: at
   * AUTOSELL_WAVE_ATTEMPTS the firing fails, saying why. Answers the firings reopened.
   */
  async reopenDropped(head: bigint): Promise<number> {
    const gaveUp = sql`f.attempts + 1 >= ${AUTOSELL_WAVE_ATTEMPTS}`;
    const why = `a sale's bundle did not land in its window (block ${head})`;
    const { rows } = await this.db.execute(sql`
      update autosell_firings f set
          state = case when ${gaveUp} then 'failed' else 'selling' end,
          waves_sent = 0, next_block = ${(head + 1n).toString()}, attempts = f.attempts + 1,
          error = case when ${gaveUp}
            then ${`Gave up after ${AUTOSELL_WAVE_ATTEMPTS} attempts: ${why}`}
            else ${`${why}; selling again`} end,
          transactions = (select coalesce(jsonb_agg(h.hash), '[]'::jsonb)
            from jsonb_array_elements_text(f.transactions) h(hash)
            where not exists (select 1 from chain_txs t
              where t.tx_hash = h.hash and t.status = 'dropped'))
        where f.state = 'sent' and ${DROPPED_SALE}
        returning f.rule_id`);
    return rows.length;
  }

  /** Firings with a wave due at `head` (or before), oldest decision first. */
  async selling(head: bigint): Promise<SellingFiring[]> {
    const { rows } = await this.db.execute(sql`
      select f.rule_id, r.owner_id, r.token, f.tier, f.percent, f.wallets, f.waves_sent,
          f.next_block::text as next_block, f.transactions, f.attempts, r.execution
        from autosell_firings f join autosell_rules r on r.id = f.rule_id
        where f.state = 'selling' and f.next_block <= ${head.toString()}
        order by f.decided_at`);
    return (rows as Array<Record<string, unknown>>).map((r) => ({
      ruleId: String(r.rule_id),
      ownerId: String(r.owner_id),
      token: String(r.token),
      tier: Number(r.tier),
      percent: String(r.percent),
      wallets: r.wallets as string[],
      wavesSent: Number(r.waves_sent),
      nextBlock: BigInt(String(r.next_block)),
      transactions: r.transactions as string[],
      attempts: Number(r.attempts),
      execution: r.execution as AutosellExecution,
    }));
  }

  /**
   * A wave's outcome: its transactions, the next wave's block, the failed tries of the next
   * wave, or the firing's end. A firing a cancel stopped meanwhile stays stopped and takes the
   * wave's transactions (what was on its way when the cancel came), its words counting them.
   */
  async waveDone(
    f: Pick<SellingFiring, "ruleId" | "tier" | "wavesSent">,
    next: {
      wavesSent: number;
      nextBlock: bigint;
      transactions: string[];
      attempts: number;
      state: "selling" | "sent" | "failed";
      error: string | null;
    },
  ): Promise<void> {
    const transactions = sql`${JSON.stringify(next.transactions)}::jsonb`;
    await this.db.execute(sql`
      update autosell_firings set waves_sent = ${next.wavesSent},
          next_block = ${next.nextBlock.toString()},
          transactions = ${transactions}, attempts = ${next.attempts},
          state = case when state = 'selling' then ${next.state} else state end,
          error = case when state = 'selling' then ${next.error} else ${stoppedWords(transactions)} end
        where rule_id = ${f.ruleId} and tier = ${f.tier} and waves_sent = ${f.wavesSent}
          and state in ('selling', 'stopped')`);
  }

  /** How far each token's launchpad events were read (absent: not yet). */
  async scans(tokens: readonly string[]): Promise<Map<string, bigint>> {
    if (tokens.length === 0) return new Map();
    const { rows } = await this.db.execute(sql`
      select token, scanned_to::text as scanned from autosell_scans
        where token = any(${textArray(tokens)}::text[])`);
    return new Map(
      (rows as Array<{ token: string; scanned: string }>).map((r) => [r.token, BigInt(r.scanned)]),
    );
  }

  /** Appends outside flows and moves each token's scan to its block, in one transaction. */
  async recordFlows(
    flows: ReadonlyArray<{ token: string; block: bigint; netWei: bigint }>,
    scans: ReadonlyArray<readonly [token: string, to: bigint]>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (flows.length > 0)
        await tx.execute(sql`
          insert into autosell_flows (token, block_number, net_wei) values ${sql.join(
            flows.map((f) => sql`(${f.token}, ${f.block.toString()}, ${f.netWei.toString()})`),
            sql`, `,
          )} on conflict do nothing`);
      if (scans.length > 0)
        await tx.execute(sql`
          insert into autosell_scans (token, scanned_to)
            select t, s from unnest(${textArray(scans.map(([t]) => t))}::text[],
              ${textArray(scans.map(([, to]) => to.toString()))}::bigint[]) as x(t, s)
            on conflict (token) do update set scanned_to = greatest(autosell_scans.scanned_to, excluded.scanned_to)`);
    });
  }

  /** Every outside flow of `tokens` (blocks with outside trading only). */
  async flows(tokens: readonly string[]): Promise<Map<string, Array<[bigint, bigint]>>> {
    const found = new Map<string, Array<[bigint, bigint]>>(tokens.map((t) => [t, []]));
    if (tokens.length === 0) return found;
    const { rows } = await this.db.execute(sql`
      select token, block_number::text as block, net_wei::text as net from autosell_flows
        where token = any(${textArray(tokens)}::text[])`);
    for (const r of rows as Array<{ token: string; block: string; net: string }>)
      found.get(r.token)?.push([BigInt(r.block), BigInt(r.net)]);
    return found;
  }
}
