import { TOKEN_TAGS } from "@bundler/shared";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import {
  DEPLOYER_BUY_PRESETS,
  type LaunchForm,
  type SetField,
  type TokenTag,
} from "../utils/launch-form.ts";
import type { FieldErrors } from "../utils/validate-launch-form.ts";
import { LogoInput } from "./logo-input.tsx";
import { PresetButtons } from "./preset-buttons.tsx";
import { Select } from "./select.tsx";
import { TextArea } from "./textarea.tsx";

const BUY_PRESETS = DEPLOYER_BUY_PRESETS.map((value) => ({ label: value, value }));

export function TokenInfoSection({
  form,
  set,
  errors,
}: {
  form: LaunchForm;
  set: SetField;
  errors: FieldErrors;
}) {
  return (
    <Section title="Token Info">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" error={errors.name} hint={`${form.name.length}/20`}>
          <Input
            aria-label="Token name"
            value={form.name}
            placeholder="e.g. Moon Dog"
            onChange={(e) => set("name", e.target.value)}
          />
        </Field>
        <Field label="Ticker" error={errors.ticker} hint={`${form.ticker.length}/10`}>
          <Input
            aria-label="Ticker"
            value={form.ticker}
            placeholder="e.g. MDOG"
            onChange={(e) => set("ticker", e.target.value.toUpperCase())}
          />
        </Field>
      </div>
      <Field label="Description" error={errors.description} hint={`${form.description.length}/400`}>
        <TextArea
          aria-label="Description"
          rows={3}
          value={form.description}
          onChange={(e) => set("description", e.target.value)}
        />
      </Field>
      <Field label="Logo">
        <LogoInput value={form.image} onChange={(image) => set("image", image)} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Twitter" error={errors.twitter}>
          <Input
            aria-label="Twitter"
            value={form.twitter}
            placeholder="https://x.com/..."
            onChange={(e) => set("twitter", e.target.value)}
          />
        </Field>
        <Field label="Telegram" error={errors.telegram}>
          <Input
            aria-label="Telegram"
            value={form.telegram}
            placeholder="https://t.me/..."
            onChange={(e) => set("telegram", e.target.value)}
          />
        </Field>
        <Field label="Website" error={errors.website}>
          <Input
            aria-label="Website"
            value={form.website}
            placeholder="https://..."
            onChange={(e) => set("website", e.target.value)}
          />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Trading fee (%)" error={errors.tradingFee}>
          <Input
            aria-label="Trading fee"
            inputMode="decimal"
            value={form.tradingFee}
            onChange={(e) => set("tradingFee", e.target.value)}
          />
        </Field>
        <Field label="Tag">
          <Select
            aria-label="Tag"
            value={form.tag}
            onChange={(e) => set("tag", e.target.value as TokenTag)}
          >
            {TOKEN_TAGS.map((tag) => (
              <option key={tag} value={tag}>
                {tag}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Deployer buy (BNB)" error={errors.deployerBuy}>
          <Input
            aria-label="Deployer buy"
            inputMode="decimal"
            placeholder="e.g. 0.1"
            value={form.deployerBuy}
            onChange={(e) => set("deployerBuy", e.target.value)}
          />
          <PresetButtons
            presets={BUY_PRESETS}
            value={form.deployerBuy}
            onPick={(v) => set("deployerBuy", v)}
            suffix=" BNB"
          />
        </Field>
      </div>
      <p className="text-xs text-faint" data-testid="fee-plan-note">
        four.meme's anti-sniper fee mode stays off: it charges the most in a token's first blocks,
        where this launch's own bundle buys land.
      </p>
    </Section>
  );
}
