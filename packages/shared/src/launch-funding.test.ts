import { describe, expect, it } from "vitest";
import { fundingNeeds } from "./launch-funding.ts";

const A = "0x2222222222222222222222222222222222222222";
const B = "0x3333333333333333333333333333333333333333";

describe("what a launch's addresses lack", () => {
  it("is each address's required amount less what it holds, in wei", () => {
    const needs = fundingNeeds(
      [
        { address: A, roles: ["bundle"], required: "0.02302" },
        { address: B, roles: ["deployer", "tip payer"], required: "0.5" },
      ],
      (address) => (address === A ? "0.01" : undefined),
    );
    expect(needs.map((n) => n.missing)).toEqual([13_020_000_000_000_000n, 5n * 10n ** 17n]);
    expect(needs[1]?.roles).toEqual(["deployer", "tip payer"]);
  });

  it("is 0 for an address that holds more than it must", () => {
    const [need] = fundingNeeds([{ address: A, roles: ["bundle"], required: "0.1" }], () => "0.2");
    expect(need?.missing).toBe(0n);
    expect(need?.held).toBe(2n * 10n ** 17n);
  });

  it("counts an unreadable balance as nothing held", () => {
    const [need] = fundingNeeds([{ address: A, roles: ["bundle"], required: "0.1" }], () => "junk");
    expect(need?.missing).toBe(10n ** 17n);
  });
});
