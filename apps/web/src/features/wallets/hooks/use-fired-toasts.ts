import type { AutosellRule } from "@bundler/shared";
import { useEffect, useEffectEvent, useRef } from "react";
import toast from "react-hot-toast";
import { firedWords } from "../utils/rule-words.ts";

const firingKey = (rule: AutosellRule, tier: number) => `${rule.id}:${tier}`;

/**
 * Toasts "Rule fired: … at block N" for each firing that was not in the previous answer of the
 * rules list (a tier fires once, so rule and tier name a firing), and calls `onFired` so the
 * balances and P&L are read again. The first answer only records what had fired before the
 * page opened.
 */
export function useFiredToasts(rules: AutosellRule[] | undefined, onFired: () => void): void {
  const seen = useRef<Set<string> | null>(null);
  const fired = useEffectEvent(onFired);
  useEffect(() => {
    if (!rules) return;
    const known = seen.current;
    const now = new Set<string>();
    let fresh = 0;
    for (const rule of rules) {
      for (const firing of rule.firings) {
        const key = firingKey(rule, firing.tier);
        now.add(key);
        if (known === null || known.has(key)) continue;
        fresh++;
        toast.success(`Rule fired: ${firedWords(rule, firing.tier)} at block ${firing.block}.`, {
          id: `rule-fired:${key}`,
        });
      }
    }
    seen.current = known ? new Set([...known, ...now]) : now;
    if (fresh > 0) fired();
  }, [rules]);
}
