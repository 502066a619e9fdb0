import { Input } from "../../../components/ui/input.tsx";
import { condition, type RuleDraft } from "../utils/rule-form.ts";
import { Labelled, TriggerFields } from "./rules-trigger-fields.tsx";

/** A ladder's tiers: each a percent and its own trigger, fired once and in order. */
export function TierFields({
  draft,
  onChange,
}: {
  draft: RuleDraft;
  onChange: (tiers: RuleDraft["tiers"]) => void;
}) {
  const { tiers } = draft;
  const setTier = (index: number, patch: Partial<RuleDraft["tiers"][number]>) =>
    onChange(tiers.map((tier, i) => (i === index ? { ...tier, ...patch } : tier)));
  return (
    <ol className="flex flex-col gap-3">
      {tiers.map((tier, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a tier's place is its identity (tier 1, 2...).
        <li key={index} className="flex flex-col gap-2 border-l border-line pl-3">
          <div className="flex items-end gap-2">
            <Labelled label={`Tier ${index + 1}'s percent to sell`}>
              {(id) => (
                <Input
                  id={id}
                  className="max-w-28 py-1"
                  inputMode="decimal"
                  value={tier.percent}
                  onChange={(e) => setTier(index, { percent: e.target.value })}
                />
              )}
            </Labelled>
            {tiers.length > 1 && (
              <button
                type="button"
                className="text-xs text-dim hover:text-accent"
                aria-label={`Remove tier ${index + 1}`}
                onClick={() => onChange(tiers.filter((_, i) => i !== index))}
              >
                [remove]
              </button>
            )}
          </div>
          <TriggerFields
            trigger={tier.trigger}
            tier={index}
            onChange={(trigger) => setTier(index, { trigger })}
          />
        </li>
      ))}
      <li>
        <button
          type="button"
          className="text-xs text-dim hover:text-accent"
          onClick={() =>
            onChange([
              ...tiers,
              { percent: "", trigger: { combine: "any", conditions: [condition("marketCap")] } },
            ])
          }
        >
          [add a tier]
        </button>
      </li>
    </ol>
  );
}
