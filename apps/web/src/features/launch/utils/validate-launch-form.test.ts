import { DELAY_MESSAGES, TRADING_FEE_MESSAGE } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { EMPTY_LAUNCH_FORM, type LaunchForm } from "./launch-form.ts";
import {
  fieldErrors,
  LAUNCH_MESSAGES,
  validateForSave,
  validateGeneration,
} from "./validate-launch-form.ts";

const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const WALLET = {
  address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  privateKey: KEY,
  buyValue: "0",
};
const form = (patch: Partial<LaunchForm> = {}): LaunchForm => ({
  ...EMPTY_LAUNCH_FORM,
  name: "Moon",
  ticker: "MOON",
  description: "to the moon",
  ...patch,
});

describe("launch form validation", () => {
  it("requires name, ticker and description to save", () => {
    expect(validateForSave(form({ name: " " }), [])).toBe("Please enter a token name");
    expect(validateForSave(form({ ticker: "" }), [])).toBe("Please enter a token ticker");
    expect(validateForSave(form({ description: "" }), [])).toBe("Please enter a token description");
    expect(validateForSave(form(), [])).toBeNull();
  });

  it("applies the length limits", () => {
    expect(validateForSave(form({ name: "x".repeat(21) }), [])).toBe(
      "Token name must be 20 characters or less",
    );
    expect(validateForSave(form({ ticker: "x".repeat(11) }), [])).toBe(
      "Ticker must be less than 10 characters",
    );
    expect(fieldErrors(form({ description: "x".repeat(401) }), []).description).toBeDefined();
  });

  it("checks links, keys and the sniper address", () => {
    const errors = fieldErrors(
      form({
        twitter: "x.com/a",
        telegram: "https://telegram.me/a",
        website: "ftp://a",
        deployerPvtk: "0x12",
        delaySnipeAddress: "0x0000000000000000000000000000000000000001",
      }),
      [WALLET],
    );
    expect(errors).toMatchObject({
      twitter: LAUNCH_MESSAGES.twitter,
      telegram: LAUNCH_MESSAGES.telegram,
      website: LAUNCH_MESSAGES.website,
      deployerPvtk: "Invalid private key",
      delaySnipeAddress: LAUNCH_MESSAGES.sniper,
    });
    const ok = form({
      twitter: "https://x.com/a",
      delaySnipeAddress: WALLET.address.toLowerCase(),
    });
    expect(fieldErrors(ok, [WALLET])).toEqual({});
  });

  it("refuses a delay over one hour with the shared schema's message, in either unit", () => {
    expect(fieldErrors(form({ delayTime: "3601", delayUnit: "seconds" }), []).delayTime).toBe(
      DELAY_MESSAGES.tooLong,
    );
    expect(fieldErrors(form({ delayTime: "61", delayUnit: "minutes" }), []).delayTime).toBe(
      DELAY_MESSAGES.tooLong,
    );
    expect(fieldErrors(form({ delayTime: "3600", delayUnit: "seconds" }), [])).toEqual({});
    expect(fieldErrors(form({ delayTime: "60", delayUnit: "minutes" }), [])).toEqual({});
  });

  it("refuses a trading fee the server would refuse, with the shared schema's message", () => {
    for (const tradingFee of ["101", "abc", "0.12345678901"])
      expect(fieldErrors(form({ tradingFee }), []).tradingFee, tradingFee).toBe(
        TRADING_FEE_MESSAGE,
      );
    expect(fieldErrors(form({ tradingFee: "1.5" }), [])).toEqual({});
  });

  it("validates wallet generation", () => {
    const range = { minBuyAmount: "0.1", maxBuyAmount: "0.2" };
    expect(validateGeneration(form({ ...range, walletCount: "0" }))).toBe(
      LAUNCH_MESSAGES.walletCount,
    );
    expect(validateGeneration(form({ walletCount: "2" }))).toBe(LAUNCH_MESSAGES.buyRequired);
    expect(
      validateGeneration(form({ walletCount: "2", minBuyAmount: "-1", maxBuyAmount: "1" })),
    ).toBe(LAUNCH_MESSAGES.buyNegative);
    expect(
      validateGeneration(form({ walletCount: "2", minBuyAmount: "2", maxBuyAmount: "1" })),
    ).toBe(LAUNCH_MESSAGES.buyOrder);
    expect(validateGeneration(form({ ...range, walletCount: "5" }))).toBeNull();
  });

  it("does not ask for a buy range when both ends are filled but one is not a number", () => {
    expect(
      validateGeneration(form({ walletCount: "2", minBuyAmount: "abc", maxBuyAmount: "0.2" })),
    ).toBe("Min buy must be a number, like 0.5");
    expect(
      validateGeneration(form({ walletCount: "2", minBuyAmount: "0.1", maxBuyAmount: "1e5" })),
    ).toBe("Max buy must be written out in digits, like 0.5");
  });

  it("says a deployer buy of -5 cannot be negative, under its field and on save", () => {
    const negative = form({ deployerBuy: "-5" });
    expect(fieldErrors(negative, []).deployerBuy).toBe("Deployer buy cannot be negative");
    expect(validateForSave(negative, [])).toBe("Deployer buy cannot be negative");
  });

  it("asks for a tip of 1e99 written out in digits", () => {
    expect(fieldErrors(form({ tip: "1e99" }), []).tip).toBe(
      "Tip must be written out in digits, like 0.001",
    );
  });
});
