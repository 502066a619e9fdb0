import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import {
  type BumperCosts,
  bumpCost,
  bumperFormError,
  bumperPlan,
  bumperReceiverError,
  bumpsOf,
  remainingPlan,
} from "./bumper.ts";

const valid = {
  targetToken: "0x1111111111111111111111111111111111111111",
  interval: 5,
  duration: 30,
  buySize: 0.01,
};

describe("the bumper form", () => {
  it.each([
    [{ targetToken: "  " }, "Token address is required"],
    [{ targetToken: "0x123" }, "Invalid address format"],
    [{ interval: 0 }, "Interval must be greater than 0"],
    [{ interval: 0.5 }, "Interval must be at least 1 minute"],
    [{ duration: 0 }, "Duration must be greater than 0"],
    [{ duration: 1441 }, "Duration cannot exceed 1 day"],
    [{ duration: 5 }, "Duration must be greater than interval"],
    [{ buySize: 0 }, "Buy size must be greater than 0"],
    [{ buySize: 0.0005 }, "Buy size must be at least 0.001 BNB"],
    [{ buySize: 1.5 }, "Buy size cannot exceed 1 BNB"],
  ])("answers %o with %s", (change, message) => {
    expect(bumperFormError({ ...valid, ...change })).toBe(message);
  });

  it("accepts the defaults", () => {
    expect(bumperFormError(valid)).toBeNull();
  });

  it("asks for a receiver address, and a valid one", () => {
    expect(bumperReceiverError("")).toBe("Receiver address is required");
    expect(bumperReceiverError("nope")).toBe("Invalid address format");
    expect(bumperReceiverError(valid.targetToken)).toBeNull();
  });

  it("accepts the least buy size, 0.001 BNB", () => {
    expect(bumperFormError({ ...valid, buySize: 0.001 })).toBeNull();
  });

  it("makes floor(duration / interval) bumps", () => {
    expect(bumpsOf(30, 7)).toBe(4);
  });
});

describe("the bumper's plan", () => {
  const costs: BumperCosts = {
    tip: "0.0005",
    gas: "0.0007",
    tradingFeeBps: 100,
    minTradingFee: "0.0001",
  };

  it("needs the buy size once plus each bump's tip, gas and trading fees", () => {
    const plan = bumperPlan(parseEther("0.01"), 3, costs);
    expect(plan.perBump).toEqual({
      tip: parseEther("0.0005"),
      gas: parseEther("0.0007"),
      fees: parseEther("0.0002"),
      total: parseEther("0.0014"),
    });
    expect(plan.required).toBe(parseEther("0.0142"));
  });

  it("charges 1% of a large buy on the buy and on the sell, the least fee on a small one", () => {
    expect(bumpCost(parseEther("0.5"), costs).fees).toBe(parseEther("0.01"));
    expect(bumpCost(parseEther("0.001"), costs).fees).toBe(parseEther("0.0002"));
  });

  it("counts only the bumps a bumper has still to make", () => {
    const bumper = { buySize: "0.01", totalBumps: 6, bumpsCompleted: 4 };
    expect(remainingPlan(bumper, costs).required).toBe(parseEther("0.0128"));
  });
});
