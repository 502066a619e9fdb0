import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bnbInputError,
  launchReadinessError,
  LAUNCH_EXECUTE_MESSAGES as M,
  tipError,
} from "./launch-checks.ts";

const ready: Parameters<typeof launchReadinessError>[0] = {
  name: "Moon Cat",
  symbol: "MCAT",
  description: "A cat.",
  image: "data:image/png;base64,iVBORw0KGgo=",
  deployerKeyValid: true,
  tip: "0.001",
};

describe("launch readiness (SPEC §5 Launch execute)", () => {
  it("accepts a complete launch", () => {
    expect(launchReadinessError(ready)).toBeNull();
  });

  it("names each missing or bad field with the spec's words", () => {
    const cases: Array<[Partial<typeof ready>, string]> = [
      [{ name: " " }, M.nameRequired],
      [{ name: "x".repeat(21) }, M.nameTooLong],
      [{ symbol: "" }, M.tickerRequired],
      [{ symbol: "ABCDEFGHIJK" }, M.tickerTooLong],
      [{ description: "" }, M.descriptionRequired],
      [{ description: "d".repeat(401) }, M.descriptionTooLong],
      [{ image: "" }, M.logo],
      [{ deployerKeyValid: false }, M.deployerKey],
      [{ tip: "" }, M.tipRequired],
      [{ tip: "abc" }, M.tipNumeric],
      [{ tip: "-0.5" }, M.tipNegative],
    ];
    for (const [change, message] of cases)
      expect(launchReadinessError({ ...ready, ...change }), message).toBe(message);
    expect(M.nameTooLong).toBe("Name must be less than 20 characters");
    expect(M.tickerTooLong).toBe("Ticker must be less than 10 characters");
    expect(M.logo).toBe("Please upload a logo");
    expect(M.deployerKey).toBe("Invalid deployer private key");
  });

  it("takes whether a logo exists where the logo itself is not at hand (the drafts list)", () => {
    expect(launchReadinessError({ ...ready, image: true })).toBeNull();
    expect(launchReadinessError({ ...ready, image: false })).toBe(M.logo);
  });

  it("accepts exactly the limits: a 20-character name and a 10-character ticker", () => {
    expect(
      launchReadinessError({ ...ready, name: "n".repeat(20), symbol: "T".repeat(10) }),
    ).toBeNull();
  });

  it("takes any non-negative BNB amount below a billion as a tip and refuses every negative one", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.integer({ min: 0, max: 18 }),
        (v, d) => {
          const text = v.toString().padStart(d + 1, "0");
          const tip = d === 0 ? text : `${text.slice(0, -d)}.${text.slice(-d)}`;
          const whole = tip.split(".")[0] ?? "";
          expect(tipError(tip)).toBe(
            whole.length > 9 ? "Tip must be a BNB amount below 1,000,000,000" : null,
          );
          if (v > 0n) expect(tipError(`-${tip}`)).toBe(M.tipNegative);
        },
      ),
    );
  });
});

describe("a BNB amount typed into a field", () => {
  it("says a negative deployer buy cannot be negative", () => {
    expect(bnbInputError("Deployer buy", "-5", "0.1")).toBe("Deployer buy cannot be negative");
  });

  it("asks for a tip written out in digits instead of 1e99", () => {
    expect(tipError("1e99")).toBe("Tip must be written out in digits, like 0.001");
  });

  it("says an amount of a billion BNB or more is too large", () => {
    expect(bnbInputError("Deployer buy", "1000000000", "0.1")).toBe(
      "Deployer buy must be a BNB amount below 1,000,000,000",
    );
  });

  it("says an amount with more than 18 decimals has too many", () => {
    expect(bnbInputError("Min buy", `0.${"1".repeat(19)}`, "0.01")).toBe(
      "Min buy can have at most 18 decimals",
    );
  });

  it("takes an empty value and an ordinary amount", () => {
    expect(bnbInputError("Tip", "", "0.001")).toBeNull();
    expect(bnbInputError("Tip", "0.25", "0.001")).toBeNull();
  });
});
