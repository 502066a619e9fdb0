import type { AutosellState } from "@bundler/shared";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { autosellFirings, autosellRules } from "../../db/schema.ts";
import type { RuleSpec } from "./autosell-preview.ts";

export type RuleRow = typeof autosellRules.$inferSelect;
export type FiringRow = typeof autosellFirings.$inferSelect;
/** A rule with its firings, ordered by tier. */
export type RuleWithFirings = RuleRow & { firings: FiringRow[] };

/** Rules that count against the limits: those that may still fire. */
const LIVE: AutosellState[] = ["armed", "paused"];

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
        .where(and(eq(autosellRules.ownerId, ownerId), inArray(autosellRules.state, LIVE)));
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
   * Replaces the rule's trigger, action and execution while it is armed or paused, and forgets
   * what the engine tracked for the old one (reading, peak, armed block).
   */
  async update(ownerId: string, id: string, spec: RuleSpec): Promise<RuleWithFirings | undefined> {
    const [row] = await this.db
      .update(autosellRules)
      .set({ ...spec, reading: null, peakWei: null, armedBlock: null, updatedAt: new Date() })
      .where(this.guard(ownerId, id, LIVE))
      .returning();
    return row ? (await this.withFirings([row]))[0] : undefined;
  }

  private guard(ownerId: string, id: string, from: readonly AutosellState[]) {
    return and(
      eq(autosellRules.id, id),
      eq(autosellRules.ownerId, ownerId),
      inArray(autosellRules.state, [...from]),
    );
  }

  /** The rules with their firings, read in one query for all of them. */
  private async withFirings(rows: RuleRow[]): Promise<RuleWithFirings[]> {
    if (rows.length === 0) return [];
    const firings = await this.db
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
