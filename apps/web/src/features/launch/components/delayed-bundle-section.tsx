import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import type { BundleWallet, DelayUnit, LaunchForm, SetField } from "../utils/launch-form.ts";
import type { FieldErrors } from "../utils/validate-launch-form.ts";
import { Select } from "./select.tsx";

/** Optional: one bundle wallet buys a while after the launch block. */
export function DelayedBundleSection({
  form,
  set,
  errors,
  wallets,
}: {
  form: LaunchForm;
  set: SetField;
  errors: FieldErrors;
  wallets: readonly BundleWallet[];
}) {
  const listId = "sniper-wallets";
  return (
    <Section title="Delayed Bundle">
      <p className="text-xs text-faint">Optional. Leave the address empty for no delayed buy.</p>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr]">
        <Field label="Sniper address" error={errors.delaySnipeAddress}>
          <Input
            aria-label="Sniper address"
            list={listId}
            placeholder="one of your bundle wallets"
            value={form.delaySnipeAddress}
            onChange={(e) => set("delaySnipeAddress", e.target.value)}
          />
          <datalist id={listId}>
            {wallets.map((wallet) => (
              <option key={wallet.address} value={wallet.address} />
            ))}
          </datalist>
        </Field>
        <Field label="Delay" error={errors.delayTime}>
          <Input
            aria-label="Delay"
            inputMode="numeric"
            placeholder="e.g. 30"
            value={form.delayTime}
            onChange={(e) => set("delayTime", e.target.value)}
          />
        </Field>
        <Field label="Unit">
          <Select
            aria-label="Delay unit"
            value={form.delayUnit}
            onChange={(e) => set("delayUnit", e.target.value as DelayUnit)}
          >
            <option value="seconds">seconds</option>
            <option value="minutes">minutes</option>
          </Select>
        </Field>
      </div>
    </Section>
  );
}
