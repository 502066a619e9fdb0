import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptAmountInput, amountForUnit, sellAmountValue } from "./sell-amount.ts";

describe("the sell amount input", () => {
  it("allows an empty amount and partial decimals while typing", () => {
    expect(acceptAmountInput("", "tokens")).toBe("");
    expect(acceptAmountInput("", "percent")).toBe("");
    expect(acceptAmountInput("12.", "tokens")).toBe("12.");
    expect(acceptAmountInput(".5", "percent")).toBe(".5");
  });

  it("refuses negatives and junk silently", () => {
    expect(acceptAmountInput("-1", "tokens")).toBeNull();
    expect(acceptAmountInput("-", "percent")).toBeNull();
    expect(acceptAmountInput("1e3", "tokens")).toBeNull();
    expect(acceptAmountInput("1.2.3", "tokens")).toBeNull();
    expect(acceptAmountInput(`1.${"1".repeat(19)}`, "tokens")).toBeNull();
  });

  it("refuses a percent above 100, and only as a percent", () => {
    expect(acceptAmountInput("100", "percent")).toBe("100");
    expect(acceptAmountInput("100.5", "percent")).toBeNull();
    expect(acceptAmountInput("101", "percent")).toBeNull();
    expect(acceptAmountInput("101", "tokens")).toBe("101");
  });

  it("never accepts a percent above 100 or a negative, whatever is typed", () => {
    fc.assert(
      fc.property(fc.string(), (typed) => {
        const accepted = acceptAmountInput(typed, "percent");
        if (accepted === null || accepted === "" || accepted === ".") return;
        expect(Number(accepted)).toBeGreaterThanOrEqual(0);
        expect(Number(accepted)).toBeLessThanOrEqual(100);
      }),
    );
  });

  it("clears an amount that is not a percent when switching to percent", () => {
    expect(amountForUnit("5000", "percent")).toBe("");
    expect(amountForUnit("50", "percent")).toBe("50");
    expect(amountForUnit("5000", "tokens")).toBe("5000");
  });

  it("sends a plain positive decimal, nothing for empty or zero", () => {
    expect(sellAmountValue("")).toBeNull();
    expect(sellAmountValue(".")).toBeNull();
    expect(sellAmountValue("0")).toBeNull();
    expect(sellAmountValue("0.000")).toBeNull();
    expect(sellAmountValue(".5")).toBe("0.5");
    expect(sellAmountValue("007.")).toBe("7");
    expect(sellAmountValue("25")).toBe("25");
    expect(sellAmountValue("1234.5678")).toBe("1234.5678");
  });

  it("sends only what the contract's amount pattern accepts", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,20}(\.\d{0,18})?$/), (typed) => {
        const value = sellAmountValue(typed);
        if (value !== null) expect(value).toMatch(/^\d{1,28}(\.\d{1,18})?$/);
      }),
    );
  });
});
