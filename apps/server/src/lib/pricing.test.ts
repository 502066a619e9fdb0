import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRICING,
  keyPriceUsd,
  launchFeeShare,
  publicPricing,
  usdToWei,
} from "./pricing.ts";

describe("key pricing", () => {
  it("converts USD to wei at the rate, rounding down", () => {
    expect(usdToWei("4", 600)).toBe(parseEther("4") / 600n);
    expect(usdToWei("3.4", 612.34567891)).toBe((parseEther("3.4") * 10n ** 8n) / 61_234_567_891n);
  });

  it("takes the referral discount off the price only for a referred buyer", () => {
    expect(keyPriceUsd(DEFAULT_PRICING, false)).toBe("4");
    expect(keyPriceUsd(DEFAULT_PRICING, true)).toBe("3.4");
  });

  it("gives a referrer referralReward / price of a launch fee: 10% with the defaults", () => {
    expect(launchFeeShare(parseEther("0.5"), DEFAULT_PRICING)).toBe(parseEther("0.05"));
  });

  it("answers the config's units and the launch-fee share", () => {
    expect(publicPricing(DEFAULT_PRICING, parseEther("0.5"))).toEqual({
      price: 4,
      referralDiscount: 0.6,
      referralReward: 0.4,
      priceCurrency: "USD",
      referralLaunchFeeShare: 0.1,
      launchFee: "0.5",
    });
  });
});
