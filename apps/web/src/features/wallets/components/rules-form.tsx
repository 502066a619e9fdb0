import type { AutosellRule } from "@bundler/shared";
import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { ApiError, failureText } from "../../../lib/api-error.ts";
import { useCreateRule } from "../api/create-rule.ts";
import { useDryRunRule } from "../api/dry-run-rule.ts";
import { useUpdateRule } from "../api/update-rule.ts";
import {
  DraftProblem,
  draftFromRule,
  emptyDraft,
  RULE_PRESETS,
  type RuleDraft,
  ruleBody,
} from "../utils/rule-form.ts";
import { RulesDryRun } from "./rules-dry-run.tsx";
import { RulesExecutionFields } from "./rules-execution-fields.tsx";
import { TierFields } from "./rules-tier-fields.tsx";
import { Labelled, TriggerFields } from "./rules-trigger-fields.tsx";

/** Why the last arm or dry run failed: the form's own check, the server's 400, or the catalogue. */
const problemOf = (error: unknown, failed: string): string => {
  if (error instanceof DraftProblem) return error.message;
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return `${failed} ${failureText(error, "Please try again.")}`;
};

/**
 * The rule form: presets that fill it, the trigger (or a ladder's tiers), what is sold and how
 * the sales go out; [dry run] answers what it would do now, [arm rule] stores it. With
 * `editing`, the form holds that rule and [save changes] replaces it.
 */
export function RulesForm({
  address,
  explorerUrl,
  editing,
  onDoneEditing,
}: {
  address: string;
  explorerUrl: string | null;
  editing: AutosellRule | null;
  onDoneEditing: () => void;
}) {
  const [draft, setDraft] = useState<RuleDraft>(() =>
    editing ? draftFromRule(editing) : emptyDraft(),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateRule();
  const update = useUpdateRule(address);
  const dryRun = useDryRunRule();
  const set = (patch: Partial<RuleDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    dryRun.reset();
  };

  /** The body to send, or null with the problem shown. */
  const body = () => {
    try {
      return ruleBody(address, draft);
    } catch (error) {
      setProblem(problemOf(error, ""));
      return null;
    }
  };
  const onDryRun = () => {
    const sent = body();
    if (!sent) return;
    setProblem(null);
    dryRun.mutate(sent, {
      onError: (error) => setProblem(problemOf(error, "The dry run failed.")),
    });
  };
  const onArm = () => {
    const sent = body();
    if (!sent) return;
    setProblem(null);
    if (editing) {
      const { address: _, ...changes } = sent;
      update.mutate(
        { id: editing.id, body: changes },
        {
          onSuccess: () => {
            toast.success("Rule saved: it is checked at every block.");
            onDoneEditing();
          },
          onError: (error) => setProblem(problemOf(error, "Failed to save the rule.")),
        },
      );
      return;
    }
    create.mutate(sent, {
      onSuccess: () => toast.success("Rule armed: it is checked at every block."),
      onError: (error) => setProblem(problemOf(error, "Failed to arm the rule.")),
    });
  };

  return (
    <form
      aria-label={editing ? "Edit rule" : "New rule"}
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        onArm();
      }}
    >
      {editing && (
        <p className="text-sm text-accent" data-testid="rule-editing">
          Editing a rule: [save changes] replaces it, [stop editing] leaves it as it was.
        </p>
      )}
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Presets</legend>
        {RULE_PRESETS.map((preset) => (
          <Button
            key={preset.name}
            variant="secondary"
            className="px-3 py-1 text-xs"
            onClick={() => set(preset.fill())}
          >
            {preset.name}
          </Button>
        ))}
      </fieldset>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-dim">
        <legend className="sr-only">What the rule sells</legend>
        <label className="flex items-center gap-1.5">
          <input
            type="radio"
            className="accent-accent"
            checked={draft.mode === "percent"}
            onChange={() => set({ mode: "percent" })}
          />
          A percent when the trigger fires
        </label>
        <label className="flex items-center gap-1.5">
          <input
            type="radio"
            className="accent-accent"
            checked={draft.mode === "tiers"}
            onChange={() =>
              set({
                mode: "tiers",
                tiers: draft.tiers.length
                  ? draft.tiers
                  : [{ percent: "100", trigger: { ...draft.trigger } }],
              })
            }
          />
          A ladder of tiers
        </label>
      </fieldset>
      {draft.mode === "percent" ? (
        <>
          <TriggerFields trigger={draft.trigger} onChange={(trigger) => set({ trigger })} />
          <Labelled label="Percent to sell">
            {(id) => (
              <Input
                id={id}
                className="max-w-28 py-1"
                inputMode="decimal"
                value={draft.percent}
                onChange={(e) => set({ percent: e.target.value })}
              />
            )}
          </Labelled>
        </>
      ) : (
        <TierFields draft={draft} onChange={(tiers) => set({ tiers })} />
      )}
      <label className="flex items-center gap-2 text-xs text-dim">
        <input
          type="checkbox"
          className="accent-accent"
          checked={draft.includeDeveloper}
          onChange={(e) => set({ includeDeveloper: e.target.checked })}
        />
        Include the developer wallet
      </label>
      <p className="-mt-3 text-xs text-faint">Every bundle wallet sells either way.</p>
      <RulesExecutionFields
        execution={draft.execution}
        onChange={(execution) => set({ execution })}
      />
      {problem && (
        <p role="alert" className="text-sm text-bad" data-testid="rule-problem">
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <Button
          variant="secondary"
          busy={dryRun.isPending}
          busyLabel="running..."
          onClick={onDryRun}
        >
          Dry run
        </Button>
        {editing ? (
          <>
            <Button type="submit" busy={update.isPending} busyLabel="saving...">
              Save changes
            </Button>
            <Button variant="secondary" onClick={onDoneEditing}>
              Stop editing
            </Button>
          </>
        ) : (
          <Button type="submit" busy={create.isPending} busyLabel="arming...">
            Arm rule
          </Button>
        )}
      </div>
      {dryRun.data && <RulesDryRun answer={dryRun.data} explorerUrl={explorerUrl} />}
    </form>
  );
}
