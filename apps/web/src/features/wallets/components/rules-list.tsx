import type { AutosellRule, AutosellState } from "@bundler/shared";
import { Button } from "../../../components/ui/button.tsx";
import { type RuleVerb, useSetRuleState } from "../api/set-rule-state.ts";
import { ruleSentences } from "../utils/rule-words.ts";
import { RulesFirings } from "./rules-firings.tsx";
import { RulesReading } from "./rules-reading.tsx";

const BADGE: Record<AutosellState, string> = {
  armed: "border-accent/60 text-accent",
  paused: "border-line-strong text-dim",
  fired: "border-ok/60 text-ok",
  cancelled: "border-line text-faint",
};

/** What a rule in each state can be told: only armed and paused rules change. */
const VERBS: Record<AutosellState, RuleVerb[]> = {
  armed: ["pause", "cancel"],
  paused: ["resume", "cancel"],
  fired: [],
  cancelled: [],
};

/** A fired rule whose firing is still selling can still be cancelled: its waves stop. */
const verbsOf = (rule: AutosellRule): RuleVerb[] =>
  rule.state === "fired" && rule.firings.some((f) => f.state === "selling")
    ? ["cancel"]
    : VERBS[rule.state];

/** Armed and paused rules can be edited; fired and cancelled ones are history. */
const editable = (state: AutosellState) => state === "armed" || state === "paused";

const VERB_LABEL: Record<RuleVerb, string> = {
  pause: "Pause",
  resume: "Resume",
  cancel: "Cancel",
};

function RuleCard({
  rule,
  explorerUrl,
  onVerb,
  onEdit,
  busy,
}: {
  rule: AutosellRule;
  explorerUrl: string | null;
  onVerb: (verb: RuleVerb) => void;
  onEdit: () => void;
  busy: boolean;
}) {
  const sentences = ruleSentences(rule);
  return (
    <li
      className="flex flex-col gap-2 rounded-sm border border-line p-3"
      data-testid="rule"
      data-rule-id={rule.id}
      aria-label={sentences[0]}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-0.5 text-sm text-fg">
          {sentences.map((sentence) => (
            <p key={sentence}>{sentence}</p>
          ))}
        </div>
        <span
          data-testid="rule-state"
          className={`shrink-0 rounded-sm border px-2 py-0.5 text-xs ${BADGE[rule.state]}`}
        >
          {rule.state}
        </span>
      </div>
      {rule.reading ? (
        <div className="flex flex-col gap-0.5">
          <p className="text-xs text-faint">
            Read at every block; last changed at block {rule.reading.block}:
          </p>
          <RulesReading reading={rule.reading} testId="rule-reading" />
          {rule.reading.error && (
            <p role="alert" className="text-xs text-bad" data-testid="rule-reading-error">
              {rule.reading.error}
            </p>
          )}
        </div>
      ) : (
        <p className="text-xs text-faint">
          No reading yet: the first pass after arming reads the trigger's inputs.
        </p>
      )}
      {verbsOf(rule).length > 0 && (
        <div className="flex gap-2">
          {editable(rule.state) && (
            <Button variant="secondary" className="px-3 py-1 text-xs" onClick={onEdit}>
              Edit
            </Button>
          )}
          {verbsOf(rule).map((verb) => (
            <Button
              key={verb}
              variant="secondary"
              className="px-3 py-1 text-xs"
              disabled={busy}
              onClick={() => onVerb(verb)}
            >
              {VERB_LABEL[verb]}
            </Button>
          ))}
        </div>
      )}
      <RulesFirings
        firings={rule.firings}
        ladder={"tiers" in rule.action}
        explorerUrl={explorerUrl}
      />
    </li>
  );
}

/** The bundle's rules, newest first: state, trigger in words, live reading, actions, firings. */
export function RulesList({
  address,
  rules,
  explorerUrl,
  onEdit,
}: {
  address: string;
  rules: AutosellRule[];
  explorerUrl: string | null;
  onEdit: (rule: AutosellRule) => void;
}) {
  const setState = useSetRuleState(address);
  if (rules.length === 0)
    return <p className="text-sm text-dim">No rules yet: pick a preset or fill the form above.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Rules">
      {rules.map((rule) => (
        <RuleCard
          key={rule.id}
          rule={rule}
          explorerUrl={explorerUrl}
          busy={setState.isPending && setState.variables?.id === rule.id}
          onVerb={(verb) => setState.mutate({ id: rule.id, verb })}
          onEdit={() => onEdit(rule)}
        />
      ))}
    </ul>
  );
}
