import type { AutosellConditionType } from "@bundler/shared";
import { type ReactNode, useId } from "react";
import { Input } from "../../../components/ui/input.tsx";
import {
  CONDITION_TYPES,
  type ConditionDraft,
  condition,
  conditionLabel,
  type TriggerDraft,
} from "../utils/rule-form.ts";

export const selectClass =
  "rounded-sm border border-line-strong bg-ink px-2 py-1 text-fg focus:border-accent focus:outline-none";
const textButton = "text-xs text-dim hover:text-accent";

/** One labelled control in a row of the form. */
export function Labelled({
  label,
  children,
}: {
  label: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1 text-xs text-dim">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

/** A condition's type select and the value fields that type needs. */
function ConditionFields({
  draft,
  name,
  onChange,
}: {
  draft: ConditionDraft;
  name: string;
  onChange: (next: ConditionDraft) => void;
}) {
  const set = (patch: Partial<ConditionDraft>) => onChange({ ...draft, ...patch });
  const isTime = draft.type === "time";
  const valueLabel = isTime
    ? draft.timeMode === "at"
      ? `${name}'s time`
      : `${name}'s minutes after launch`
    : `${name}'s ${CONDITION_TYPES[draft.type].value}`;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <Labelled label={`${name}'s type`}>
        {(id) => (
          <select
            id={id}
            className={selectClass}
            value={draft.type}
            // A new type starts blank: a market cap's 60 means nothing as a percent.
            onChange={(e) => onChange(condition(e.target.value as AutosellConditionType))}
          >
            {Object.entries(CONDITION_TYPES).map(([type, { name: typeName }]) => (
              <option key={type} value={type}>
                {typeName}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      {isTime && (
        <Labelled label={`${name}'s time kind`}>
          {(id) => (
            <select
              id={id}
              className={selectClass}
              value={draft.timeMode}
              onChange={(e) => set({ timeMode: e.target.value as "at" | "after", value: "" })}
            >
              <option value="after">minutes after launch</option>
              <option value="at">at a moment</option>
            </select>
          )}
        </Labelled>
      )}
      <Labelled label={valueLabel}>
        {(id) => (
          <Input
            id={id}
            className="max-w-44 py-1"
            inputMode={isTime && draft.timeMode === "at" ? undefined : "decimal"}
            type={isTime && draft.timeMode === "at" ? "datetime-local" : "text"}
            value={draft.value}
            onChange={(e) => set({ value: e.target.value })}
          />
        )}
      </Labelled>
      {draft.type === "marketCap" && (
        <Labelled label={`${name}'s unit`}>
          {(id) => (
            <select
              id={id}
              className={selectClass}
              value={draft.unit}
              onChange={(e) => set({ unit: e.target.value as "BNB" | "USD" })}
            >
              <option value="BNB">BNB</option>
              <option value="USD">USD</option>
            </select>
          )}
        </Labelled>
      )}
      {draft.type === "outsideBuys" && (
        <Labelled label={`${name}'s window in blocks (blank: since launch)`}>
          {(id) => (
            <Input
              id={id}
              className="max-w-28 py-1"
              inputMode="numeric"
              value={draft.withinBlocks}
              onChange={(e) => set({ withinBlocks: e.target.value })}
            />
          )}
        </Labelled>
      )}
    </div>
  );
}

/**
 * A trigger: its conditions, each with a type and values, combined by any-of or all-of.
 * `tier` (counted from 0) names a ladder tier's fields ("Tier 2, condition 1's type").
 */
export function TriggerFields({
  trigger,
  tier,
  onChange,
}: {
  trigger: TriggerDraft;
  tier?: number;
  onChange: (next: TriggerDraft) => void;
}) {
  const id = useId();
  const owner = tier === undefined ? "The trigger" : `Tier ${tier + 1}'s trigger`;
  const setCondition = (index: number, next: ConditionDraft) =>
    onChange({
      ...trigger,
      conditions: trigger.conditions.map((c, i) => (i === index ? next : c)),
    });
  return (
    <div className="flex flex-col gap-2">
      <label className="flex items-center gap-2 text-xs text-dim" htmlFor={`${id}-combine`}>
        <span>{owner} fires when</span>
        <select
          id={`${id}-combine`}
          className={selectClass}
          value={trigger.combine}
          onChange={(e) => onChange({ ...trigger, combine: e.target.value as "any" | "all" })}
        >
          <option value="any">any condition is met</option>
          <option value="all">all conditions are met</option>
        </select>
      </label>
      {trigger.conditions.map((draft, index) => (
        // Conditions have no id of their own; their place is what the labels say.
        // biome-ignore lint/suspicious/noArrayIndexKey: the row's place is its identity here.
        <div key={index} className="flex items-end gap-2">
          <ConditionFields
            draft={draft}
            name={conditionLabel(index, tier)}
            onChange={(next) => setCondition(index, next)}
          />
          {trigger.conditions.length > 1 && (
            <button
              type="button"
              className={textButton}
              aria-label={`Remove ${conditionLabel(index, tier).toLowerCase()}`}
              onClick={() =>
                onChange({
                  ...trigger,
                  conditions: trigger.conditions.filter((_, i) => i !== index),
                })
              }
            >
              [remove]
            </button>
          )}
        </div>
      ))}
      <button
        type="button"
        className={`self-start ${textButton}`}
        onClick={() =>
          onChange({ ...trigger, conditions: [...trigger.conditions, condition("marketCap")] })
        }
      >
        {tier === undefined ? "[add a condition]" : `[add a condition to tier ${tier + 1}]`}
      </button>
    </div>
  );
}
