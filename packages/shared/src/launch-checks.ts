/**
 * SPEC §5 "Launch execute" and "Drafts": what paying for or executing a launch requires, with
 * the exact texts a user sees. The server checks them on pay and execute; the web shows the
 * same words before asking.
 */
export const LAUNCH_EXECUTE_MESSAGES = {
  nameRequired: "Please enter a token name",
  nameTooLong: "Name must be less than 20 characters",
  tickerRequired: "Please enter a token ticker",
  tickerTooLong: "Ticker must be less than 10 characters",
  descriptionRequired: "Please enter a token description",
  descriptionTooLong: "Description must be 400 characters or less",
  logo: "Please upload a logo",
  deployerKey: "Invalid deployer private key",
  tipRequired: "Please enter a tip amount",
  tipNumeric: "Tip must be a number",
  tipNegative: "Tip cannot be negative",
} as const;

export const TOKEN_NAME_MAX = 20;
export const TOKEN_TICKER_MAX = 10;
export const TOKEN_DESCRIPTION_MAX = 400;

const BNB_AMOUNT = /^\d+(\.\d{1,18})?$/;
const SIGNED_NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;
const EXPONENT = /^[-+]?(\d+(\.\d*)?|\.\d+)e[-+]?\d+$/i;

/**
 * What is wrong with a BNB amount typed into the field `label`, or null when it is one: not
 * negative, written out in digits (not "1e99"), at most 18 decimals and below a billion BNB.
 * An empty value is the caller's to judge.
 *
 * @example
 * bnbInputError("Deployer buy", "-5", "0.1"); // "Deployer buy cannot be negative"
 * bnbInputError("Tip", "1e99", "0.001"); // "Tip must be written out in digits, like 0.001"
 */
export const bnbInputError = (label: string, input: string, example: string): string | null => {
  const value = input.trim();
  if (value === "") return null;
  if ((SIGNED_NUMBER.test(value) || EXPONENT.test(value)) && value.startsWith("-"))
    return Number(value) === 0 ? null : `${label} cannot be negative`;
  if (EXPONENT.test(value)) return `${label} must be written out in digits, like ${example}`;
  if (!BNB_AMOUNT.test(value.replace(/^\+/, ""))) {
    if (/^\+?\d+\.\d{19,}$/.test(value)) return `${label} can have at most 18 decimals`;
    return `${label} must be a number, like ${example}`;
  }
  if (!/^\+?\d{1,9}(\.|$)/.test(value)) return `${label} must be a BNB amount below 1,000,000,000`;
  return null;
};

/** The tip's problem, or null: required, a number, not negative (SPEC §5), a sane amount. */
export const tipError = (tip: string | undefined | null): string | null => {
  const value = (tip ?? "").trim();
  if (value === "") return LAUNCH_EXECUTE_MESSAGES.tipRequired;
  if (SIGNED_NUMBER.test(value) && value.startsWith("-") && Number(value) !== 0)
    return LAUNCH_EXECUTE_MESSAGES.tipNegative;
  if (!BNB_AMOUNT.test(value) && !EXPONENT.test(value)) return LAUNCH_EXECUTE_MESSAGES.tipNumeric;
  return bnbInputError("Tip", value, "0.001");
};

export interface LaunchReadinessInput {
  name: string | undefined;
  symbol: string | undefined;
  description: string | undefined;
  /**
   * The logo (data URL or base64), empty when none was uploaded; or just whether there is one
   * (a list that does not load logos).
   */
  image: string | boolean | undefined;
  /** Whether a deployer private key is present and valid. */
  deployerKeyValid: boolean;
  tip: string | undefined;
}

/**
 * The first reason a draft cannot be paid for or launched, in SPEC §5's words; null when ready.
 *
 * @example
 * launchReadinessError({ name: "Moon", symbol: "MOON", description: "x", image: "", deployerKeyValid: true, tip: "0.001" })
 * // "Please upload a logo"
 */
export const launchReadinessError = (input: LaunchReadinessInput): string | null => {
  const name = (input.name ?? "").trim();
  const symbol = (input.symbol ?? "").trim();
  const description = (input.description ?? "").trim();
  const m = LAUNCH_EXECUTE_MESSAGES;
  if (!name) return m.nameRequired;
  if (name.length > TOKEN_NAME_MAX) return m.nameTooLong;
  if (!symbol) return m.tickerRequired;
  if (symbol.length > TOKEN_TICKER_MAX) return m.tickerTooLong;
  if (!description) return m.descriptionRequired;
  if (description.length > TOKEN_DESCRIPTION_MAX) return m.descriptionTooLong;
  const hasLogo =
    typeof input.image === "boolean" ? input.image : Boolean((input.image ?? "").trim());
  if (!hasLogo) return m.logo;
  if (!input.deployerKeyValid) return m.deployerKey;
  return tipError(input.tip);
};
