import { describe, expect, it } from "vitest";
import { EMPTY_LAUNCH_FORM, type LaunchForm } from "./launch-form.ts";
import { validateForLaunch } from "./validate-launch-execute.ts";

const KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

/** A form that is ready to launch, with `patch` applied. */
const ready = (patch: Partial<LaunchForm> = {}): LaunchForm => ({
  ...EMPTY_LAUNCH_FORM,
  name: "Moon",
  ticker: "MOON",
  description: "to the moon",
  image: "data:image/webp;base64,AA",
  deployerPvtk: KEY,
  tip: "0.001",
  ...patch,
});

const check = (patch: Partial<LaunchForm>) => validateForLaunch(ready(patch), []);

describe("validateForLaunch", () => {
  it("accepts a form that has everything a launch needs", () => {
    expect(check({})).toBeNull();
  });

  it("accepts a tip of zero", () => {
    expect(check({ tip: "0" })).toBeNull();
  });

  it("requires a name", () => {
    expect(check({ name: "  " })).toBe("Please enter a token name");
  });

  it("refuses a name over 20 characters in the spec's words", () => {
    expect(check({ name: "x".repeat(20) })).toBeNull();
    expect(check({ name: "x".repeat(21) })).toBe("Name must be less than 20 characters");
  });

  it("requires a ticker", () => {
    expect(check({ ticker: "" })).toBe("Please enter a token ticker");
  });

  it("refuses a ticker over 10 characters in the spec's words", () => {
    expect(check({ ticker: "x".repeat(10) })).toBeNull();
    expect(check({ ticker: "x".repeat(11) })).toBe("Ticker must be less than 10 characters");
  });

  it("requires a description of at most 400 characters", () => {
    expect(check({ description: "" })).toBe("Please enter a token description");
    expect(check({ description: "x".repeat(401) })).toBe(
      "Description must be 400 characters or less",
    );
  });

  it("requires a logo", () => {
    expect(check({ image: "" })).toBe("Please upload a logo");
  });

  it("refuses a logo over 500KB after compression", () => {
    expect(check({ image: `data:image/webp;base64,${"A".repeat(700_001)}` })).toBe(
      "Image is too large after compression. Please use a smaller image (max 500KB).",
    );
  });

  it("requires a valid deployer key", () => {
    expect(check({ deployerPvtk: "" })).toBe("Invalid deployer private key");
    expect(check({ deployerPvtk: "0x1234" })).toBe("Invalid deployer private key");
  });

  it("requires a tip", () => {
    expect(check({ tip: " " })).toBe("Please enter a tip amount");
  });

  it("refuses a tip that is not a number", () => {
    expect(check({ tip: "abc" })).toBe("Tip must be a number");
    expect(check({ tip: "0.1.2" })).toBe("Tip must be a number");
  });

  it("refuses a negative tip", () => {
    expect(check({ tip: "-0.001" })).toBe("Tip cannot be negative");
  });

  it("applies the live rules last", () => {
    expect(check({ twitter: "x.com/moon" })).toBe(
      "Twitter link must start with https://x.com/ or https://twitter.com/",
    );
  });
});
