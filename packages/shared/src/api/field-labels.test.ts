import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createDispersalRoute } from "./disperse.ts";
import { draftInputSchema } from "./drafts.ts";
import { describeRequestProblem, labelled } from "./field-labels.ts";
import { generateWalletsRoute } from "./wallets.ts";

const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("a request's problem in words", () => {
  it("names a wallet count above the limit by the form's label", () => {
    const problem = describeRequestProblem(generateWalletsRoute.body, {
      walletCount: 500,
      minBuyAmount: "0.01",
      maxBuyAmount: "0.02",
      publicKey: "k".repeat(200),
    });
    expect(problem).toEqual({
      error: "Number of wallets must be at most 100",
      field: "walletCount",
    });
  });

  it("names the row of a bad amount counted from 1, with its path for the grid", () => {
    const problem = describeRequestProblem(createDispersalRoute.body, {
      wallets: [address, address.toLowerCase().replace("c8", "c9")],
      amounts: ["0.1", "1000000000"],
    });
    expect(problem).toEqual({
      error: "Wallet 2 amount must be a BNB amount below 1,000,000,000",
      field: "amounts.1",
      row: 2,
    });
  });

  it("says what an address must look like instead of Invalid address format", () => {
    const problem = describeRequestProblem(createDispersalRoute.body, {
      wallets: ["0x123"],
      amounts: ["1"],
    });
    expect(problem?.error).toBe("Wallet 1 address must be an address: 0x and 40 hex characters");
    expect(problem?.row).toBe(1);
  });

  it("names a draft's wallet by its row and the buy by its label", () => {
    const problem = describeRequestProblem(draftInputSchema, {
      tokenInfo: { name: "Moon", symbol: "MOON", description: "d" },
      walletConfig: {
        wallets: [{ address, privateKey: `0x${"1".repeat(64)}`, buyValue: "-1" }],
      },
    });
    expect(problem).toEqual({
      error: "Wallet 1 buy must be a BNB amount like 0.1",
      field: "walletConfig.wallets.0.buyValue",
      row: 1,
    });
  });

  it("keeps a message the contract wrote as a whole sentence", () => {
    const problem = describeRequestProblem(draftInputSchema, {
      tokenInfo: { name: "", symbol: "MOON", description: "d" },
    });
    expect(problem?.error).toBe("Please enter a token name");
  });

  it("says a missing field is required", () => {
    const schema = labelled(z.object({ receiver: z.string() }), { receiver: "Receiver address" });
    expect(describeRequestProblem(schema, {})?.error).toBe("Receiver address is required");
  });

  it("reads an unlabelled field by its name", () => {
    const schema = z.object({ buySize: z.number().max(1) });
    expect(describeRequestProblem(schema, { buySize: 5 })?.error).toBe(
      "Buy size must be at most 1",
    );
  });

  it("gives a message that starts with the field's own name the field's label", () => {
    const schema = labelled(z.object({ page: z.number().min(1, "page must be at least 1") }), {
      page: "Page",
    });
    expect(describeRequestProblem(schema, { page: 0 })?.error).toBe("Page must be at least 1");
  });
});
