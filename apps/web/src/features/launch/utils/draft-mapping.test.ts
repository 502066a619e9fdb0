import { type Draft, draftInputSchema } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { fromDraft, toDraftInput } from "./draft-mapping.ts";
import { EMPTY_LAUNCH_FORM } from "./launch-form.ts";

const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

describe("draft mapping", () => {
  it("builds a body the shared contract accepts and reads it back", () => {
    const form = {
      ...EMPTY_LAUNCH_FORM,
      name: "Moon",
      ticker: "MOON",
      description: "d",
      deployerPvtk: KEY,
      deployerBuy: "0.1",
      minBuyAmount: "0.5",
      maxBuyAmount: "1",
      delaySnipeAddress: ADDRESS,
      delayTime: "2",
      delayUnit: "minutes" as const,
    };
    const wallets = [{ address: ADDRESS, privateKey: KEY, buyValue: "0.2", tokenAmount: "1" }];
    const input = draftInputSchema.parse(toDraftInput(form, wallets));
    expect(input.walletConfig?.maxDelay).toBe(120);
    expect(input.walletConfig?.wallets).toEqual([
      { address: ADDRESS, privateKey: KEY, buyValue: "0.2", tokenAmount: "1" },
    ]);
    const draft = {
      _id: "id",
      status: "draft",
      tokenInfo: input.tokenInfo,
      deployerWallet: input.deployerWallet ?? null,
      walletConfig: input.walletConfig,
    } as unknown as Draft;
    const back = fromDraft(draft);
    expect(back.form).toMatchObject({
      name: "Moon",
      deployerPvtk: KEY,
      deployerBuy: "0.1",
      buyUnitPercent: true,
      delayTime: "2",
      delayUnit: "minutes",
      walletCount: "1",
    });
    expect(back.wallets[0]).toMatchObject({ buyValue: "0.2", tokenAmount: "1" });
  });

  it("keeps a tax token's settings as tokenTaxInfo with four.meme's names, and reads them back", () => {
    const form = {
      ...EMPTY_LAUNCH_FORM,
      name: "Taxed",
      ticker: "TAX",
      description: "d",
      tokenType: "tax" as const,
      taxFeeRate: "5",
      taxBurn: "20",
      taxDividend: "30",
      taxLiquidity: "40",
      taxRecipient: "10",
      taxRecipientAddress: ADDRESS,
      taxMinSharing: "1000000",
    };
    const input = draftInputSchema.parse(toDraftInput(form, []));
    expect(input.tokenInfo.tokenTaxInfo).toEqual({
      feeRate: 5,
      burnRate: 20,
      divideRate: 30,
      liquidityRate: 40,
      recipientRate: 10,
      recipientAddress: ADDRESS,
      minSharing: 1000000,
    });
    const draft = {
      tokenInfo: input.tokenInfo,
      deployerWallet: null,
      walletConfig: input.walletConfig,
    } as unknown as Draft;
    const back = fromDraft(draft).form;
    expect(back).toMatchObject({
      tokenType: "tax",
      taxBurn: "20",
      taxRecipientAddress: ADDRESS,
      taxMinSharing: "1000000",
    });
    expect(toDraftInput({ ...back }, []).tokenInfo.tokenTaxInfo).toEqual(
      input.tokenInfo.tokenTaxInfo,
    );
    expect(toDraftInput({ ...form, tokenType: "standard" }, []).tokenInfo).not.toHaveProperty(
      "tokenTaxInfo",
    );
  });
});
