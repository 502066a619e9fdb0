import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { launchReadinessError, LAUNCH_EXECUTE_MESSAGES as M, tipError } from "./launch-checks.ts";

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

  it("takes any non-negative BNB amount as a tip and refuses every negative one", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.integer({ min: 0, max: 18 }),
        (v, d) => {
          const text = v.toString().padStart(d + 1, "0");
          const tip = d === 0 ? text : `${text.slice(0, -d)}.${text.slice(-d)}`;
          expect(tipError(tip)).toBeNull();
          if (v > 0n) expect(tipError(`-${tip}`)).toBe(M.tipNegative);
        },
      ),
    );
  });
});
