import { ANTI_BUBBLEMAPS_WALLETS } from "@bundler/shared";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { RECOMMENDED_BUFFER } from "../utils/dispersal-form.ts";

/** The balance buffer every wallet gets on top of its amount, and the anti bubblemaps switch. */
export function DispersalSettings({
  buffer,
  antiBubblemaps,
  onBufferChange,
  onAntiBubblemapsChange,
}: {
  buffer: string;
  antiBubblemaps: boolean;
  onBufferChange: (value: string) => void;
  onAntiBubblemapsChange: (value: boolean) => void;
}) {
  return (
    <Section title="Settings">
      <Field
        label="Balance buffer (BNB)"
        hint="Added to every wallet's amount, to pay for its future transactions."
      >
        <div className="flex items-stretch gap-2">
          <Input
            aria-label="Balance buffer"
            inputMode="decimal"
            placeholder={`e.g. ${RECOMMENDED_BUFFER}`}
            value={buffer}
            onChange={(e) => onBufferChange(e.target.value)}
          />
          <button
            type="button"
            className="shrink-0 rounded-sm border border-line-strong bg-raised px-3 text-dim hover:border-accent hover:text-accent"
            onClick={() => onBufferChange(RECOMMENDED_BUFFER)}
          >
            [recommend]
          </button>
        </div>
      </Field>
      <div className="flex items-start justify-between gap-4">
        <div className="flex flex-col gap-0.5">
          <span id="anti-bubblemaps-label" className="text-fg">
            Anti Bubblemaps
          </span>
          <span className="text-xs text-faint">
            Routes the funds through {ANTI_BUBBLEMAPS_WALLETS} intermediate wallets per destination,
            so the wallets do not look linked.
          </span>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={antiBubblemaps}
          aria-labelledby="anti-bubblemaps-label"
          onClick={() => onAntiBubblemapsChange(!antiBubblemaps)}
          className={`relative mt-1 inline-flex h-5 w-9 shrink-0 items-center rounded-full border transition-colors ${
            antiBubblemaps ? "border-accent bg-accent/30" : "border-line-strong bg-raised"
          }`}
        >
          <span
            aria-hidden="true"
            className={`inline-block size-3.5 rounded-full transition-transform ${
              antiBubblemaps ? "translate-x-4 bg-accent" : "translate-x-0.5 bg-dim"
            }`}
          />
        </button>
      </div>
    </Section>
  );
}
