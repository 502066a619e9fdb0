import { addressSchema, planLaunchRoute } from "@bundler/shared";
import type { RouteBody } from "../../../lib/api-client.ts";
import { toWei } from "../../../lib/bnb.ts";
import type { BundleWallet, LaunchForm } from "./launch-form.ts";
import { walletFromPrivateKey } from "./private-key.ts";

export type PlanLaunchBody = RouteBody<typeof planLaunchRoute>;

/**
 * What the server is asked to plan for the form as it is now: the addresses the deployer and
 * tip payer keys control, the creator buy, the tip per bundle, each wallet's buy and the
 * delayed sniper (when it is an address). Empty amounts count as 0, as a saved draft stores
 * them. Null when no wallet buys anything or the route's schema would refuse the body (an
 * amount that is not a BNB amount, too many wallets).
 */
export function planLaunchBody(
  form: LaunchForm,
  wallets: readonly BundleWallet[],
): PlanLaunchBody | null {
  if (!wallets.some((wallet) => (toWei(wallet.buyValue) ?? 0n) > 0n)) return null;
  const deployer = walletFromPrivateKey(form.deployerPvtk);
  const tipPayer = walletFromPrivateKey(form.tipPvtk);
  const sniper = form.delaySnipeAddress.trim();
  const body: PlanLaunchBody = {
    ...(deployer ? { deployerAddress: deployer.address } : {}),
    ...(tipPayer ? { tipPayerAddress: tipPayer.address } : {}),
    creatorBuy: form.deployerBuy.trim() || "0",
    tip: form.tip.trim() || "0",
    wallets: wallets.map(({ address, buyValue }) => ({
      address,
      buyValue: buyValue.trim() || "0",
    })),
    ...(addressSchema.safeParse(sniper).success ? { delaySnipeAddress: sniper } : {}),
    ...(form.tokenType === "tax" ? { taxToken: true } : {}),
  };
  return planLaunchRoute.body.safeParse(body).success ? body : null;
}
