import { KEY_PRICING_DEFAULTS, type PricingConfig } from "@bundler/shared";
import { formatEther, parseEther, parseUnits } from "viem";

/**
 * What an access key costs and what a referral earns, in USD decimal strings (KEY_PRICE_USD,
 * REFERRAL_DISCOUNT_USD, REFERRAL_REWARD_USD): exact, never floats, until converted to wei.
 */
export interface Pricing {
  price: string;
  referralDiscount: string;
  referralReward: string;
}

export const DEFAULT_PRICING: Pricing = {
  price: String(KEY_PRICING_DEFAULTS.price),
  referralDiscount: String(KEY_PRICING_DEFAULTS.referralDiscount),
  referralReward: String(KEY_PRICING_DEFAULTS.referralReward),
};

/** A USD/BNB rate as Chainlink gives it: 8 decimals. */
const RATE_DECIMALS = 8;

/** `usd` dollars in wei at `rate` USD per BNB, rounded down to the wei. */
export const usdToWei = (usd: string, rate: number): bigint => {
  const scaledRate = parseUnits(rate.toFixed(RATE_DECIMALS), RATE_DECIMALS);
  if (scaledRate <= 0n) throw new Error("the BNB/USD rate must be positive");
  return (parseEther(usd) * 10n ** BigInt(RATE_DECIMALS)) / scaledRate;
};

/** USD a buyer pays for a key: the price, less the referral discount when a code came with it. */
export const keyPriceUsd = (pricing: Pricing, referred: boolean): string =>
  referred
    ? formatEther(parseEther(pricing.price) - parseEther(pricing.referralDiscount))
    : pricing.price;

/** A referrer's share of a referred user's launch fee: fee × referralReward / price, in wei. */
export const launchFeeShare = (fee: bigint, pricing: Pricing): bigint =>
  (fee * parseEther(pricing.referralReward)) / parseEther(pricing.price);

/** The pricing part of `GET /api/config`. */
export const publicPricing = (pricing: Pricing, launchFee: bigint): PricingConfig => ({
  price: Number(pricing.price),
  referralDiscount: Number(pricing.referralDiscount),
  referralReward: Number(pricing.referralReward),
  priceCurrency: "USD",
  referralLaunchFeeShare: Number(pricing.referralReward) / Number(pricing.price),
  launchFee: formatEther(launchFee),
});
