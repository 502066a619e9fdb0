import { describe, expect, it } from "vitest";
import { blockFitSentence, laterBundlesSentence } from "./block-fit.ts";

const blockrazor = { name: "blockrazor", maxTxs: 50, signed: false };
const unsigned48 = { name: "48club", maxTxs: 5, signed: false };

describe("blockFitSentence", () => {
  it("counts the buys the largest bundle holds besides the create and its tip, naming every builder's cap", () => {
    expect(blockFitSentence([unsigned48, blockrazor])).toBe(
      "Up to 48 buying wallets land in the create's block: BlockRazor takes 50 transactions (the create, 48 buys, its tip); 48 Club takes 5 unsigned.",
    );
  });

  it("says 48 Club is signed when its tier is the largest", () => {
    expect(blockFitSentence([{ name: "48club", maxTxs: 50, signed: true }])).toBe(
      "Up to 48 buying wallets land in the create's block: 48 Club takes 50 transactions signed (the create, 48 buys, its tip).",
    );
    expect(
      blockFitSentence([
        { name: "48club", maxTxs: 10, signed: true },
        { ...blockrazor, maxTxs: 15 },
      ]),
    ).toBe(
      "Up to 13 buying wallets land in the create's block: BlockRazor takes 15 transactions (the create, 13 buys, its tip); 48 Club takes 10 signed.",
    );
  });

  it("names every builder sharing the largest cap, and the local builder", () => {
    expect(blockFitSentence([blockrazor, { name: "nodereal", maxTxs: 50, signed: false }])).toBe(
      "Up to 48 buying wallets land in the create's block: BlockRazor and NodeReal take 50 transactions (the create, 48 buys, their tip).",
    );
    expect(blockFitSentence([{ name: "local", maxTxs: 3, signed: false }])).toBe(
      "Up to 1 buying wallet lands in the create's block: the local builder takes 3 transactions (the create, 1 buy, its tip).",
    );
  });

  it("says launches cannot be sent without a builder", () => {
    expect(blockFitSentence([])).toMatch(/launches cannot be sent/);
  });
});

describe("laterBundlesSentence", () => {
  it("speaks only of wallets past the create's block", () => {
    expect(laterBundlesSentence([unsigned48], 3)).toBeNull();
    expect(laterBundlesSentence([unsigned48], 5)).toBe(
      "The other 2 wallets buy in later bundles, after the create's block.",
    );
  });
});
