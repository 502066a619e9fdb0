import { BUMPER_MIN_BUY_BNB, type Bumper, type BumperCosts, bumpsOf } from "@bundler/shared";
import type { ReactNode } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { type BumperFormState, formInMinutes } from "../hooks/use-bumper-form.ts";
import { TIME_UNITS, type TimeUnit } from "../utils/duration-unit.ts";
import { BumperPlanText } from "./bumper-plan-text.tsx";

function UnitSelect({
  label,
  value,
  disabled,
  onChange,
}: {
  label: string;
  value: TimeUnit;
  disabled: boolean;
  onChange: (unit: TimeUnit) => void;
}) {
  return (
    <select
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value as TimeUnit)}
      className="rounded-sm border border-line-strong bg-ink px-2 py-2 text-fg focus:border-accent focus:outline-none disabled:text-dim"
    >
      {TIME_UNITS.map((unit) => (
        <option key={unit} value={unit}>
          {unit}
        </option>
      ))}
    </select>
  );
}

function Row({ children }: { children: ReactNode }) {
  return <div className="flex items-stretch gap-2">{children}</div>;
}

/**
 * The bumper's settings. Editable only while no bumper is selected: a selected one shows its
 * own settings, locked (SPEC §4).
 */
export function BumperConfigForm({
  form,
  locked,
  busy,
  costs,
  onGenerate,
}: {
  form: BumperFormState;
  /** What a bump costs now (tip, gas, fees); undefined until the server answers. */
  costs: BumperCosts | undefined;
  /** The selected bumper, whose settings are shown instead of the form's. */
  locked: Bumper | null;
  busy: boolean;
  onGenerate: () => void;
}) {
  const { values, set } = form;
  const shown = locked
    ? {
        targetToken: locked.targetToken,
        interval: String(locked.interval),
        intervalUnit: "minutes" as const,
        duration: String(locked.duration),
        durationUnit: "minutes" as const,
        buySize: locked.buySize,
      }
    : values;
  const disabled = locked !== null;
  const planned = formInMinutes(values);
  const bumps = bumpsOf(planned.duration, planned.interval);
  return (
    <Section title="Configuration">
      <Field label="Token address">
        <Input
          aria-label="Token address"
          placeholder="0x…"
          spellCheck={false}
          value={shown.targetToken}
          disabled={disabled}
          onChange={(e) => set("targetToken", e.target.value)}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Interval">
          <Row>
            <Input
              aria-label="Interval"
              type="number"
              min={0}
              value={shown.interval}
              disabled={disabled}
              onChange={(e) => set("interval", e.target.value)}
            />
            <UnitSelect
              label="Interval unit"
              value={shown.intervalUnit}
              disabled={disabled}
              onChange={(unit) => set("intervalUnit", unit)}
            />
          </Row>
        </Field>
        <Field label="Duration" hint="one day at most">
          <Row>
            <Input
              aria-label="Duration"
              type="number"
              min={0}
              value={shown.duration}
              disabled={disabled}
              onChange={(e) => set("duration", e.target.value)}
            />
            <UnitSelect
              label="Duration unit"
              value={shown.durationUnit}
              disabled={disabled}
              onChange={(unit) => set("durationUnit", unit)}
            />
          </Row>
        </Field>
      </div>
      <Field label="Buy size (BNB)">
        <Input
          aria-label="Buy size"
          type="number"
          min={BUMPER_MIN_BUY_BNB}
          step={BUMPER_MIN_BUY_BNB}
          value={shown.buySize}
          disabled={disabled}
          onChange={(e) => set("buySize", e.target.value)}
        />
      </Field>
      {!locked && (
        <>
          <BumperPlanText buySize={values.buySize} bumps={bumps} costs={costs} />
          {form.error && (
            <p role="alert" className="text-sm text-bad">
              {form.error}
            </p>
          )}
          <Button busy={busy} busyLabel="generating..." onClick={onGenerate}>
            Generate bumper
          </Button>
        </>
      )}
    </Section>
  );
}
