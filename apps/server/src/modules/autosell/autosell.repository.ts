import type { AutosellState } from "@bundler/shared";
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { autosellFirings, autosellRules } from "../../db/schema.ts";
import { stoppedWords } from "./autosell-pass.repository.ts";
import type { RuleSpec } from "./autosell-preview.ts";

export type RuleRow = typeof autosellRules.$inferSelect;
export type FiringRow = typeof autosellFirings.$inferSelect;
/** A rule with its firings, ordered by tier. */
export type RuleWithFirings = RuleRow & { firings: FiringRow[] };

/** Rules that may still fire: they can be edited, and count against the limits. */
const LIVE: AutosellState[] = ["armed", "paused"];

/** A rule that has a firing still selling (its waves not all sent). */
const stillSelling = sql`exists (select 1 from ${autosellFirings} f
  where f.rule_id = ${autosellRules.id} and f.state = 'selling')`;

/** Rules that count against the limits: those that may still fire, or are still selling. */
const countsAgainstLimits = or(inArray(autosellRules.state, LIVE), stillSelling);

/** How many live rules a new one would join, and the limits it must stay within. */
export interface RuleLimits {
  perBundle: number;
  perUser: number;
}

/** What a change of state sets besides the state: a resume re-arms a trailing stop. */
interface Rearm {
  clearTracking: boolean;
}

/**
 * The rules' rows for their routes: created under the owner's lock so two requests never pass
 * a limit together, and every change of state guarded in SQL by the owner and the states it
 * may start from, so a rule the engine fires meanwhile is never paused or edited after the fact.
 */
export class AutosellRepository {
  constructor(readonly db: Db) {}

  /**
   * Inserts an armed rule unless the bundle or the owner already has as many live rules as
   * `limits` allow: then it answers which limit was reached and stores nothing.
   */
  async create(
    ownerId: string,
    token: string,
    spec: RuleSpec,
    limits: RuleLimits,
  ): Promise<{ rule: RuleWithFirings } | { full: "bundle" | "user" }> {
    const lower = token.toLowerCase();
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`autosell:${ownerId}`}))`);
      const [counted] = await tx
        .select({
          user: sql<number>`count(*)::int`,
          bundle: sql<number>`(count(*) filter (where ${autosellRules.token} = ${lower}))::int`,
        })
        .from(autosellRules)
        .where(and(eq(autosellRules.ownerId, ownerId), countsAgainstLimits));
      if ((counted?.bundle ?? 0) >= limits.perBundle) return { full: "bundle" as const };
      if ((counted?.user ?? 0) >= limits.perUser) return { full: "user" as const };
      const [row] = await tx
        .insert(autosellRules)
        .values({ ownerId, token: lower, state: "armed", ...spec, armedBlock: null })
        .returning();
      if (!row) throw new Error("the rule was not inserted");
      return { rule: { ...row, firings: [] } };
    });
  }

  /** The owner's rule with its firings; another user's reads as absent. */
  async find(ownerId: string, id: string): Promise<RuleWithFirings | undefined> {
    const [row] = await this.db
      .select()
      .from(autosellRules)
      .where(and(eq(autosellRules.id, id), eq(autosellRules.ownerId, ownerId)));
    return row ? (await this.withFirings([row]))[0] : undefined;
  }

  /** The owner's rules on one token, newest first, with their firings (two queries). */
  async list(ownerId: string, token: string): Promise<RuleWithFirings[]> {
    const rows = await this.db
      .select()
      .from(autosellRules)
      .where(and(eq(autosellRules.ownerId, ownerId), eq(autosellRules.token, token.toLowerCase())))
      .orderBy(desc(autosellRules.createdAt), desc(autosellRules.id));
    return this.withFirings(rows);
  }

  /**
   * Moves the owner's rule from one of `from` to `to`; undefined when it is not the owner's or
   * not in one of those states (read it again to tell which). A resume clears the trailing
   * stop's peak and the armed block, so the engine arms it afresh at its next pass.
   */
  async setState(
    ownerId: string,
    id: string,
    from: readonly AutosellState[],
    to: AutosellState,
    { clearTracking }: Rearm = { clearTracking: false },
  ): Promise<RuleWithFirings | undefined> {
    const [row] = await this.db
      .update(autosellRules)
      .set({
        state: to,
        updatedAt: new Date(),
        ...(clearTracking ? { peakWei: null, armedBlock: null } : {}),
      })
      .where(this.guard(ownerId, id, from))
      .returning();
    return row ? (await this.withFirings([row]))[0] : undefined;
  }

  /**
   * Cancels the owner's rule if it is armed or paused, or still has a firing selling, and stops
   * that firing in the same transaction (the pass sends no further wave; a wave already on its
   * way records its transactions on the stopped firing). Undefined when it is not the owner's
   * or has nothing left to cancel (read it again to tell which).
   */
  async cancel(ownerId: string, id: string): Promise<RuleWithFirings | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(autosellRules)
        .set({ state: "cancelled", updatedAt: new Date() })
        .where(
          and(eq(autosellRules.id, id), eq(autosellRules.ownerId, ownerId), countsAgainstLimits),
        )
        .returning();
      if (!row) return undefined;
      await tx.execute(sql`
        update autosell_firings set state = 'stopped', error = ${stoppedWords(sql`transactions`)}
          where rule_id = ${id} and state = 'selling'`);
      return (await this.withFirings([row], tx))[0];
    });
  }

  /**
   * Replaces the rule's trigger, action and execution while it is armed or paused, under its
   * row lock, once `allowed` accepts the change from the rule as locked and the tiers it has
   * fired (it throws to refuse); forgets what the engine tracked for the old one (reading, peak, armed block) and
   * moves its version on, so a pass that read the old one decides nothing on it.
   */
  async update(
    ownerId: string,
    id: string,
    spec: RuleSpec,
    allowed: (current: RuleRow, firedTiers: number[]) => void,
  ): Promise<RuleWithFirings | undefined> {
    return this.db.transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(autosellRules)
        .where(this.guard(ownerId, id, LIVE))
        .for("update");
      if (!locked) return undefined;
      const fired = await tx
        .select({ tier: autosellFirings.tier })
        .from(autosellFirings)
        .where(eq(autosellFirings.ruleId, id));
      allowed(
        locked,
        fired.map((f) => f.tier).sort((a, b) => a - b),
      );
      const [row] = await tx
        .update(autosellRules)
        .set({
          ...spec,
          reading: null,
          peakWei: null,
          armedBlock: null,
          version: sql`${autosellRules.version} + 1`,
          updatedAt: new Date(),
        })
        .where(eq(autosellRules.id, id))
        .returning();
      return row ? (await this.withFirings([row], tx))[0] : undefined;
    });
  }

  private guard(ownerId: string, id: string, from: readonly AutosellState[]) {
    return and(
      eq(autosellRules.id, id),
      eq(autosellRules.ownerId, ownerId),
      inArray(autosellRules.state, [...from]),
    );
  }

  /** The rules with their firings, read in one query for all of them. */
  private async withFirings(rows: RuleRow[], db: Db | Tx = this.db): Promise<RuleWithFirings[]> {
    if (rows.length === 0) return [];
    const firings = await db
      .select()
      .from(autosellFirings)
      .where(
        inArray(
          autosellFirings.ruleId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(autosellFirings.ruleId), asc(autosellFirings.tier));
    const byRule = new Map<string, FiringRow[]>();
    for (const firing of firings) {
      const list = byRule.get(firing.ruleId) ?? [];
      list.push(firing);
      byRule.set(firing.ruleId, list);
    }
    return rows.map((row) => ({ ...row, firings: byRule.get(row.id) ?? [] }));
  }
}
