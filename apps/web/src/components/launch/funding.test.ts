import { describe, expect, it } from "vitest";
import { planFixture } from "../../testing/fixtures.ts";
import { faucetAmount, fundingRowsOf, isShort } from "./funding.ts";

const row = { role: "bundle", address: "0xAbC", required: "0.1" };

describe("funding", () => {
  it("asks the faucet for the missing amount plus 0.01 BNB to spare", () => {
    expect(faucetAmount("0.1", "0.04")).toBe("0.07");
    expect(faucetAmount("0.1", undefined)).toBe("0.11");
  });

  it("asks the faucet for nothing once the address holds what it must", () => {
    expect(faucetAmount("0.1", "0.1")).toBeNull();
  });

  it("counts an address below its required amount as short", () => {
    expect(isShort(row, new Map([["0xabc", "0.0999"]]))).toBe(true);
    expect(isShort(row, new Map([["0xabc", "0.1"]]))).toBe(false);
  });

  it("counts an address whose balance is unknown as short", () => {
    expect(isShort(row, new Map())).toBe(true);
    expect(isShort(row, undefined)).toBe(true);
  });

  it("lists the plan's funding with each address's roles", () => {
    const plan = planFixture({
      funding: [
        { address: "0xd", roles: ["deployer", "tip payer"], required: "0.0521" },
        { address: "0xb", roles: ["bundle"], required: "0.2003" },
      ],
    });

    expect(fundingRowsOf(plan)).toEqual([
      { role: "deployer, tip payer", address: "0xd", required: "0.0521" },
      { role: "bundle", address: "0xb", required: "0.2003" },
    ]);
  });
});
