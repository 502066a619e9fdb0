import { describe, expect, it } from "vitest";
import { bumperFormError, bumperReceiverError, bumpsOf, requiredBumperBnb } from "./bumper.ts";

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

  it("makes floor(duration / interval) bumps and needs the buy size plus 0.001 BNB a bump", () => {
    expect(bumpsOf(30, 7)).toBe(4);
    expect(requiredBumperBnb(0.01, 6)).toBeCloseTo(0.016);
  });
});
