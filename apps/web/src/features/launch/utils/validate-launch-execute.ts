import { launchReadinessError } from "@bundler/shared";
import type { BundleWallet, LaunchForm } from "./launch-form.ts";
import { walletFromPrivateKey } from "./private-key.ts";
import { validateForSave } from "./validate-launch-form.ts";

/**
 * What a launch needs, checked before paying (and before saving a paid draft, whose next step
 * is the launch): the token's fields and limits, a logo, a valid deployer key, a tip of zero or
 * more BNB, then what saving checks (the logo's size, links, tip payer key, sniper, delay).
 */
export function validateForLaunch(
  form: LaunchForm,
  wallets: readonly BundleWallet[],
): string | null {
  const problem = launchReadinessError({
    name: form.name,
    symbol: form.ticker,
    description: form.description,
    image: form.image,
    deployerKeyValid: walletFromPrivateKey(form.deployerPvtk) !== null,
    tip: form.tip,
  });
  // The logo's size after compression and the live rules.
  return problem ?? validateForSave(form, wallets);
}
