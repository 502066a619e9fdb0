import { describe, expect, it } from "vitest";
import { hasMissingFunds, mainActions } from "./main-action.ts";

const wallet = (address: string, buyValue: string) => ({ address, privateKey: "0x", buyValue });

describe("main button", () => {
  it("follows generate wallets → generate amounts → save", () => {
    expect(mainActions({ wallets: [], missingFunds: false, status: null }).primary).toBe(
      "generate-wallets",
    );
    expect(
      mainActions({
        wallets: [wallet("0xa", "0"), wallet("0xb", "")],
        missingFunds: true,
        status: null,
      }),
    ).toEqual({ primary: "generate-amounts", secondary: null });
  });

  it("adds missing funds, pay, execute when paid, or nothing once launching", () => {
    const wallets = [wallet("0xa", "0.1")];
    expect(mainActions({ wallets, missingFunds: true, status: null }).secondary).toBe(
      "missing-funds",
    );
    expect(mainActions({ wallets, missingFunds: false, status: null }).secondary).toBe("pay");
    expect(mainActions({ wallets, missingFunds: false, status: "draft" }).secondary).toBe("pay");
    expect(mainActions({ wallets, missingFunds: false, status: "paid" }).secondary).toBe("execute");
    expect(mainActions({ wallets, missingFunds: true, status: "paid" }).secondary).toBe(
      "missing-funds",
    );
    expect(mainActions({ wallets, missingFunds: false, status: "executing" }).secondary).toBeNull();
    expect(mainActions({ wallets, missingFunds: false, status: "executed" }).secondary).toBeNull();
  });

  it("counts a balance below the buy value, or unknown, as missing", () => {
    const wallets = [wallet("0xA", "0.1"), wallet("0xb", "0.2")];
    const balances = new Map([
      ["0xa", "0.1"],
      ["0xb", "0.2"],
    ]);
    expect(hasMissingFunds(wallets, balances)).toBe(false);
    expect(
      hasMissingFunds(
        wallets,
        new Map([
          ["0xa", "0.1"],
          ["0xb", "0.19"],
        ]),
      ),
    ).toBe(true);
    expect(hasMissingFunds(wallets, new Map([["0xa", "1"]]))).toBe(true);
  });
});
