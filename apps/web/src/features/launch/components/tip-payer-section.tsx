import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { type LaunchForm, type SetField, TIP_PRESETS } from "../utils/launch-form.ts";
import { walletFromPrivateKey } from "../utils/private-key.ts";
import type { FieldErrors } from "../utils/validate-launch-form.ts";
import { PresetButtons } from "./preset-buttons.tsx";

export function TipPayerSection({
  form,
  set,
  errors,
}: {
  form: LaunchForm;
  set: SetField;
  errors: FieldErrors;
}) {
  const address = walletFromPrivateKey(form.tipPvtk)?.address;
  return (
    <Section title="Tip Payer">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Private key (optional)"
          error={errors.tipPvtk}
          hint={address ? `address ${address}` : "the deployer pays the tip when empty"}
        >
          <Input
            aria-label="Tip payer private key"
            type="password"
            autoComplete="off"
            placeholder="0x..."
            value={form.tipPvtk}
            onChange={(e) => set("tipPvtk", e.target.value)}
          />
        </Field>
        <Field
          label="Builder tip (BNB)"
          error={errors.tip}
          hint="paid to the block builder for same-block inclusion"
        >
          <Input
            aria-label="Tip"
            inputMode="decimal"
            value={form.tip}
            onChange={(e) => set("tip", e.target.value)}
          />
          <PresetButtons presets={TIP_PRESETS} value={form.tip} onPick={(v) => set("tip", v)} />
        </Field>
      </div>
    </Section>
  );
}
