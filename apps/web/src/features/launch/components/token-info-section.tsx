import { TAX_FEE_RATES, TOKEN_TAGS } from "@bundler/shared";
import { Field } from "../../../components/ui/field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import {
  DEPLOYER_BUY_PRESETS,
  type LaunchForm,
  type SetField,
  type TokenTag,
  type TokenType,
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
      <Field label="Token type">
        <Select
          aria-label="Token type"
          value={form.tokenType}
          onChange={(e) => set("tokenType", e.target.value as TokenType)}
        >
          <option value="standard">Standard</option>
          <option value="tax">Tax token</option>
        </Select>
      </Field>
      {form.tokenType === "tax" && <TaxFields form={form} set={set} errors={errors} />}
      <p className="text-xs text-faint" data-testid="fee-plan-note">
        four.meme's anti-sniper fee mode stays off: it charges the most in a token's first blocks,
        where this launch's own bundle buys land.
      </p>
    </Section>
  );
}

const SHARES = [
  { field: "taxBurn", label: "Burn share (%)" },
  { field: "taxDividend", label: "Dividend share (%)" },
  { field: "taxLiquidity", label: "Liquidity share (%)" },
  { field: "taxRecipient", label: "Recipient share (%)" },
] as const;

/**
 * A tax token's settings (four.meme's create guide §3.4): the fee on each DEX buy and sell,
 * how it is shared out, who receives the recipient's share and what balance earns dividends.
 */
function TaxFields({
  form,
  set,
  errors,
}: {
  form: LaunchForm;
  set: SetField;
  errors: FieldErrors;
}) {
  return (
    <div className="flex flex-col gap-4" data-testid="tax-fields">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Tax fee rate" error={errors.taxFeeRate}>
          <Select
            aria-label="Tax fee rate"
            value={form.taxFeeRate}
            onChange={(e) => set("taxFeeRate", e.target.value)}
          >
            {TAX_FEE_RATES.map((rate) => (
              <option key={rate} value={String(rate)}>
                {rate}%
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Minimum balance for dividends (tokens)"
          error={errors.taxMinSharing}
          hint="d × 10^n tokens, n ≥ 5: 100000, 200000, 1000000..."
        >
          <Input
            aria-label="Minimum balance for dividends"
            inputMode="numeric"
            value={form.taxMinSharing}
            onChange={(e) => set("taxMinSharing", e.target.value)}
          />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-4">
        {SHARES.map(({ field, label }) => (
          <Field key={field} label={label} error={errors[field]}>
            <Input
              aria-label={label.replace(" (%)", "")}
              inputMode="numeric"
              value={form[field]}
              onChange={(e) => set(field, e.target.value)}
            />
          </Field>
        ))}
      </div>
      {errors.taxShares && (
        <p role="alert" className="text-xs text-bad">
          {errors.taxShares}
        </p>
      )}
      <Field label="Recipient address" error={errors.taxRecipientAddress}>
        <Input
          aria-label="Recipient address"
          value={form.taxRecipientAddress}
          placeholder="0x... (needed when the recipient share is over 0%)"
          onChange={(e) => set("taxRecipientAddress", e.target.value)}
        />
      </Field>
      <p className="text-xs text-faint">
        The tax is taken on buys and sells on PancakeSwap once the token graduates; on the bonding
        curve four.meme does not tax this kind of token.
      </p>
    </div>
  );
}
