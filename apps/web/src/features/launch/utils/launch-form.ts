import type { TOKEN_TAGS } from "@bundler/shared";

export type TokenTag = (typeof TOKEN_TAGS)[number];
export type DelayUnit = "seconds" | "minutes";
/** "Token type: Standard | Tax token" (four.meme's create guide §3.4). */
export type TokenType = "standard" | "tax";

/** SPEC §3 Launch form; amounts stay decimal strings. `image` is the compressed data URL. */
export interface LaunchForm {
  name: string;
  ticker: string;
  description: string;
  image: string;
  twitter: string;
  telegram: string;
  website: string;
  tradingFee: string;
  tag: TokenTag;
  tokenType: TokenType;
  /** Tax token fields, percents and tokens as typed (four.meme's `tokenTaxInfo`). */
  taxFeeRate: string;
  taxBurn: string;
  taxDividend: string;
  taxLiquidity: string;
  taxRecipient: string;
  taxRecipientAddress: string;
  taxMinSharing: string;
  deployerPvtk: string;
  deployerBuy: string;
  tipPvtk: string;
  tip: string;
  walletCount: string;
  minBuyAmount: string;
  maxBuyAmount: string;
  buyUnitPercent: boolean;
  delaySnipeAddress: string;
  delayTime: string;
  delayUnit: DelayUnit;
}

/** A bundle wallet: its key, its buy (BNB) and the tokens that buy is quoted to get. */
export interface BundleWallet {
  address: string;
  privateKey: string;
  buyValue: string;
  /** 18-decimal token units as a string, when a quote is known. */
  tokenAmount?: string;
}

export const TIP_PRESETS = [
  { label: "Low", value: "0.0005" },
  { label: "Recommended", value: "0.001" },
  { label: "High", value: "0.002" },
] as const;

export const DEPLOYER_BUY_PRESETS = ["0.1", "0.25", "0.5"] as const;

export const EMPTY_LAUNCH_FORM: LaunchForm = {
  name: "",
  ticker: "",
  description: "",
  image: "",
  twitter: "",
  telegram: "",
  website: "",
  tradingFee: "0.25",
  tag: "Meme",
  tokenType: "standard",
  taxFeeRate: "5",
  taxBurn: "0",
  taxDividend: "0",
  taxLiquidity: "0",
  taxRecipient: "100",
  taxRecipientAddress: "",
  taxMinSharing: "100000",
  deployerPvtk: "",
  deployerBuy: "",
  tipPvtk: "",
  tip: "0.001",
  walletCount: "",
  minBuyAmount: "",
  maxBuyAmount: "",
  buyUnitPercent: true,
  delaySnipeAddress: "",
  delayTime: "",
  delayUnit: "seconds",
};

/** The delay the form asks for, in seconds (0 when empty or not a number). */
export const delaySeconds = (form: Pick<LaunchForm, "delayTime" | "delayUnit">): number =>
  (Number.parseInt(form.delayTime, 10) || 0) * (form.delayUnit === "minutes" ? 60 : 1);

export type SetField = <K extends keyof LaunchForm>(field: K, value: LaunchForm[K]) => void;

/** The form's tax fields as four.meme's `tokenTaxInfo`, numbers as typed (NaN when not one). */
export const taxInfoOf = (form: LaunchForm) => {
  const number = (value: string) => (value.trim() === "" ? Number.NaN : Number(value.trim()));
  return {
    feeRate: number(form.taxFeeRate),
    burnRate: number(form.taxBurn),
    divideRate: number(form.taxDividend),
    liquidityRate: number(form.taxLiquidity),
    recipientRate: number(form.taxRecipient),
    recipientAddress: form.taxRecipientAddress.trim(),
    minSharing: number(form.taxMinSharing),
  };
};

/** Which form field holds each `tokenTaxInfo` field. */
export const TAX_FORM_FIELDS = {
  feeRate: "taxFeeRate",
  burnRate: "taxBurn",
  divideRate: "taxDividend",
  liquidityRate: "taxLiquidity",
  recipientRate: "taxRecipient",
  recipientAddress: "taxRecipientAddress",
  minSharing: "taxMinSharing",
} as const satisfies Record<string, keyof LaunchForm>;
