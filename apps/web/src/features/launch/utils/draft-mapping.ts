import type { Draft, DraftInput } from "@bundler/shared";
import {
  type BundleWallet,
  delaySeconds,
  EMPTY_LAUNCH_FORM,
  type LaunchForm,
  taxInfoOf,
} from "./launch-form.ts";
import { walletFromPrivateKey } from "./private-key.ts";

/** The draft body the server stores (it encrypts the keys at rest). */
export function toDraftInput(form: LaunchForm, wallets: readonly BundleWallet[]): DraftInput {
  const deployer = walletFromPrivateKey(form.deployerPvtk);
  const tipPayer = walletFromPrivateKey(form.tipPvtk);
  const sniper = form.delaySnipeAddress.trim();
  const seconds = delaySeconds(form);
  const min = form.minBuyAmount.trim();
  const max = form.maxBuyAmount.trim();
  return {
    tokenInfo: {
      name: form.name.trim(),
      symbol: form.ticker.trim(),
      description: form.description.trim(),
      image: form.image,
      twitter: form.twitter.trim(),
      telegram: form.telegram.trim(),
      website: form.website.trim(),
      tradingFee: form.tradingFee.trim() || "0.25",
      preSale: form.deployerBuy.trim() || "0",
      tag: form.tag,
      ...(form.tokenType === "tax" ? { tokenTaxInfo: taxInfoOf(form) } : {}),
    },
    deployerWallet: deployer ?? undefined,
    walletConfig: {
      wallets: wallets.map(({ address, privateKey, buyValue, tokenAmount }) => ({
        address,
        privateKey,
        buyValue: buyValue || "0",
        ...(tokenAmount ? { tokenAmount } : {}),
      })),
      tip: form.tip.trim() || "0",
      tipPayer: tipPayer ?? undefined,
      buyAmount: min && max ? { min, max, isPercentage: form.buyUnitPercent } : undefined,
      tipEnabled: true,
      delayEnabled: Boolean(sniper),
      delaySnipeAddress: sniper || undefined,
      minDelay: sniper ? seconds : 0,
      maxDelay: sniper ? seconds : 0,
    },
  };
}

/** A stored draft back into the form and wallet list, for editing. */
export function fromDraft(draft: Draft): { form: LaunchForm; wallets: BundleWallet[] } {
  const { tokenInfo, walletConfig } = draft;
  const delay = walletConfig.maxDelay;
  const inMinutes = delay > 0 && delay % 60 === 0;
  const preSale = tokenInfo.preSale === "0" ? "" : tokenInfo.preSale;
  const tax = tokenInfo.tokenTaxInfo;
  return {
    form: {
      ...EMPTY_LAUNCH_FORM,
      name: tokenInfo.name,
      ticker: tokenInfo.symbol,
      description: tokenInfo.description,
      image: tokenInfo.image,
      twitter: tokenInfo.twitter,
      telegram: tokenInfo.telegram,
      website: tokenInfo.website,
      tradingFee: tokenInfo.tradingFee,
      tag: tokenInfo.tag,
      ...(tax
        ? {
            tokenType: "tax" as const,
            taxFeeRate: String(tax.feeRate),
            taxBurn: String(tax.burnRate),
            taxDividend: String(tax.divideRate),
            taxLiquidity: String(tax.liquidityRate),
            taxRecipient: String(tax.recipientRate),
            taxRecipientAddress: tax.recipientAddress,
            taxMinSharing: String(tax.minSharing),
          }
        : {}),
      deployerPvtk: draft.deployerWallet?.privateKey ?? "",
      deployerBuy: preSale,
      tipPvtk: walletConfig.tipPayer?.privateKey ?? "",
      tip: walletConfig.tip,
      walletCount: walletConfig.wallets.length ? String(walletConfig.wallets.length) : "",
      minBuyAmount: walletConfig.buyAmount?.min ?? "",
      maxBuyAmount: walletConfig.buyAmount?.max ?? "",
      buyUnitPercent: walletConfig.buyAmount?.isPercentage ?? true,
      delaySnipeAddress: walletConfig.delayEnabled ? (walletConfig.delaySnipeAddress ?? "") : "",
      delayTime:
        walletConfig.delayEnabled && delay > 0 ? String(inMinutes ? delay / 60 : delay) : "",
      delayUnit: inMinutes ? "minutes" : "seconds",
    },
    wallets: walletConfig.wallets.map(({ address, privateKey, buyValue, tokenAmount }) => ({
      address,
      privateKey,
      buyValue,
      ...(tokenAmount ? { tokenAmount } : {}),
    })),
  };
}
