import type { BundleWallet, LaunchForm } from "./launch-form.ts";
import { walletFromPrivateKey } from "./private-key.ts";
import { isAmount, validateForSave } from "./validate-launch-form.ts";

/**
 * SPEC §5 "Launch execute", in the spec's words where it gives them. One place on the web side;
 * packages/shared is to carry the same constants for the server (then this imports them).
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
  tipNotNumeric: "Tip must be a number",
  tipNegative: "Tip cannot be negative",
} as const;

const M = LAUNCH_EXECUTE_MESSAGES;

/**
 * What a launch needs, checked before paying (and before saving a paid draft, whose next step
 * is the launch): the token's fields and limits, a logo, a valid deployer key, a tip of zero or
 * more BNB, then what saving checks (the logo's size, links, tip payer key, sniper, delay).
 */
export function validateForLaunch(
  form: LaunchForm,
  wallets: readonly BundleWallet[],
): string | null {
  const name = form.name.trim();
  const ticker = form.ticker.trim();
  const description = form.description.trim();
  const tip = form.tip.trim();
  if (!name) return M.nameRequired;
  if (name.length > 20) return M.nameTooLong;
  if (!ticker) return M.tickerRequired;
  if (ticker.length > 10) return M.tickerTooLong;
  if (!description) return M.descriptionRequired;
  if (description.length > 400) return M.descriptionTooLong;
  if (!form.image) return M.logo;
  if (!walletFromPrivateKey(form.deployerPvtk)) return M.deployerKey;
  if (!tip) return M.tipRequired;
  if (tip.startsWith("-") && isAmount(tip.slice(1))) return M.tipNegative;
  if (!isAmount(tip)) return M.tipNotNumeric;
  // The logo's size after compression and the live rules.
  return validateForSave(form, wallets);
}
