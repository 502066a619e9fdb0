import {
  bnbInputError,
  DELAY_MESSAGES,
  describeIssue,
  MAX_DELAY_SECONDS,
  TAX_LABELS,
  TRADING_FEE_MESSAGE,
  tokenInfoSchema,
  tokenTaxInfoSchema,
  tradingFeeSchema,
} from "@bundler/shared";
import {
  type BundleWallet,
  delaySeconds,
  type LaunchForm,
  TAX_FORM_FIELDS,
  taxInfoOf,
} from "./launch-form.ts";
import { INVALID_PRIVATE_KEY, walletFromPrivateKey } from "./private-key.ts";

export const LAUNCH_MESSAGES = {
  twitter: "Twitter link must start with https://x.com/ or https://twitter.com/",
  telegram: "Telegram link must start with https://t.me/",
  website: "Website must start with https:// or http://",
  sniper: "Address must be one of the imported wallet addresses",
  walletCount: "Please enter a valid number of wallets (minimum 1)",
  buyRequired: "Please enter a minimum and maximum buy amount",
  buyNegative: "Buy amounts cannot be negative",
  buyOrder: "Minimum buy amount cannot be greater than maximum buy amount",
  delay: "Please enter a valid delay",
} as const;

const URL_RULES = {
  twitter: {
    prefixes: ["https://x.com/", "https://twitter.com/"],
    message: LAUNCH_MESSAGES.twitter,
  },
  telegram: { prefixes: ["https://t.me/"], message: LAUNCH_MESSAGES.telegram },
  website: { prefixes: ["https://", "http://"], message: LAUNCH_MESSAGES.website },
} as const;

/** Per form field; `taxShares` is the rule between the four tax shares (they sum to 100). */
export type FieldErrors = Partial<Record<keyof LaunchForm | "taxShares", string>>;

/**
 * The live "form validator" (SPEC §5): what can be wrong while typing. Empty required fields
 * are not errors here; they are refused when saving.
 */
export function fieldErrors(form: LaunchForm, wallets: readonly BundleWallet[]): FieldErrors {
  const errors: FieldErrors = {};
  if (form.name.trim().length > 20) errors.name = "Token name must be 20 characters or less";
  if (form.ticker.trim().length > 10) errors.ticker = "Ticker must be less than 10 characters";
  if (form.description.trim().length > 400)
    errors.description = "Description must be 400 characters or less";
  for (const field of ["twitter", "telegram", "website"] as const) {
    const value = form[field].trim();
    const rule = URL_RULES[field];
    if (value && !rule.prefixes.some((prefix) => value.toLowerCase().startsWith(prefix)))
      errors[field] = rule.message;
  }
  if (form.tradingFee.trim() && !tradingFeeSchema.safeParse(form.tradingFee).success)
    errors.tradingFee = TRADING_FEE_MESSAGE;
  const deployerBuy = bnbInputError("Deployer buy", form.deployerBuy, "0.1");
  if (deployerBuy) errors.deployerBuy = deployerBuy;
  const tip = bnbInputError("Tip", form.tip, "0.001");
  if (tip) errors.tip = tip;
  if (form.deployerPvtk.trim() && !walletFromPrivateKey(form.deployerPvtk))
    errors.deployerPvtk = INVALID_PRIVATE_KEY;
  if (form.tipPvtk.trim() && !walletFromPrivateKey(form.tipPvtk))
    errors.tipPvtk = INVALID_PRIVATE_KEY;
  const sniper = form.delaySnipeAddress.trim().toLowerCase();
  if (sniper && !wallets.some((wallet) => wallet.address.toLowerCase() === sniper))
    errors.delaySnipeAddress = LAUNCH_MESSAGES.sniper;
  if (form.delayTime.trim() && !/^\d+$/.test(form.delayTime.trim()))
    errors.delayTime = LAUNCH_MESSAGES.delay;
  else if (delaySeconds(form) > MAX_DELAY_SECONDS) errors.delayTime = DELAY_MESSAGES.tooLong;
  if (form.tokenType === "tax") Object.assign(errors, taxErrors(form));
  return errors;
}

/**
 * A tax token's broken rules, each a sentence naming its field (the shared schema's, so the
 * server says the same): one per field, the shares' sum under `taxShares`.
 */
export function taxErrors(form: LaunchForm): FieldErrors {
  const errors: FieldErrors = {};
  const parsed = tokenTaxInfoSchema.safeParse(taxInfoOf(form));
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof typeof TAX_FORM_FIELDS | undefined;
    const field = key ? TAX_FORM_FIELDS[key] : "taxShares";
    errors[field] ??= describeIssue(issue, TAX_LABELS).error;
  }
  return errors;
}

const firstError = (errors: FieldErrors): string | null =>
  Object.values(errors).find(Boolean) ?? null;

/** Saving a draft: name, ticker, description (the shared schema's messages), then the live rules. */
export function validateForSave(form: LaunchForm, wallets: readonly BundleWallet[]): string | null {
  const parsed = tokenInfoSchema.safeParse({
    name: form.name,
    symbol: form.ticker,
    description: form.description,
    image: form.image,
  });
  if (!parsed.success) return parsed.error.issues[0]?.message ?? "Failed to save draft";
  return firstError(fieldErrors(form, wallets));
}

export const isAmount = (value: string) => /^\d+(\.\d{1,18})?$/.test(value.trim());

/**
 * The buy range for amount generation (SPEC §5 Wallet generation): both filled, not negative,
 * each a number (said of the field that is not, by its label), min not above max.
 */
export function validateBuyRange(form: LaunchForm): string | null {
  const min = form.minBuyAmount.trim();
  const max = form.maxBuyAmount.trim();
  if (!min || !max) return LAUNCH_MESSAGES.buyRequired;
  if (min.startsWith("-") || max.startsWith("-")) return LAUNCH_MESSAGES.buyNegative;
  const example = form.buyUnitPercent ? "0.5" : "0.01";
  const problem = bnbInputError("Min buy", min, example) ?? bnbInputError("Max buy", max, example);
  if (problem) return problem;
  if (!isAmount(min) || !isAmount(max)) return LAUNCH_MESSAGES.buyRequired;
  if (Number(min) > Number(max)) return LAUNCH_MESSAGES.buyOrder;
  return null;
}

/** Generating wallets: a count of at least 1 and a valid buy range. */
export function validateGeneration(form: LaunchForm): string | null {
  const count = Number(form.walletCount);
  if (!/^\d+$/.test(form.walletCount.trim()) || !Number.isInteger(count) || count < 1)
    return LAUNCH_MESSAGES.walletCount;
  return validateBuyRange(form);
}
