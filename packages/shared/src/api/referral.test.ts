import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateFreeKeyRoute, startKeyPaymentRoute } from "./auth.ts";
import {
  claimAddressError,
  claimRequestError,
  REFERRAL_CODE_PATTERN,
  referralCodeError,
  referralLink,
} from "./referral.ts";

const ADDRESS = "0x1111111111111111111111111111111111111111";

describe("a custom referral code", () => {
  it.each([
    ["", "Please enter a custom code"],
    ["   ", "Please enter a custom code"],
    ["ab", "A code is 3 to 20 letters, digits, _ or -"],
    ["a".repeat(21), "A code is 3 to 20 letters, digits, _ or -"],
    ["has space", "A code is 3 to 20 letters, digits, _ or -"],
    ["emoji🙂", "A code is 3 to 20 letters, digits, _ or -"],
  ])("refuses %j with %s", (code, message) => {
    expect(referralCodeError(code)).toBe(message);
  });

  it("accepts 3 to 20 letters, digits, underscores and dashes", () => {
    for (const code of ["abc", "ABC_def-123", "a".repeat(20), "  moon-cat  "])
      expect(referralCodeError(code)).toBeNull();
  });

  it("accepts exactly what the pattern describes, for any string", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (code) => {
        const ok = referralCodeError(code) === null;
        expect(ok).toBe(REFERRAL_CODE_PATTERN.test(code.trim()));
      }),
    );
  });
});

describe("a claim", () => {
  it("needs BNB to claim before anything else", () => {
    expect(claimRequestError("0", "")).toBe("No BNB available to claim");
    expect(claimRequestError("0.000", ADDRESS)).toBe("No BNB available to claim");
    expect(claimRequestError("", ADDRESS)).toBe("No BNB available to claim");
  });

  it("asks for a receiving address, then a valid one", () => {
    expect(claimRequestError("0.01", "  ")).toBe("Please enter a receiving address");
    expect(claimRequestError("0.01", "0x123")).toBe("Please enter a valid BNB address");
    expect(claimAddressError(`${ADDRESS}0`)).toBe("Please enter a valid BNB address");
  });

  it("accepts a positive amount and 0x plus 40 hex characters", () => {
    expect(claimRequestError("0.000000000000000001", ADDRESS)).toBeNull();
    expect(claimAddressError(` ${ADDRESS.toUpperCase().replace("0X", "0x")} `)).toBeNull();
  });
});

describe("the referral link", () => {
  it("is the origin plus ?referral={code}", () => {
    expect(referralLink("https://bundler.example", "moon_cat")).toBe(
      "https://bundler.example?referral=moon_cat",
    );
  });
});

describe("a referral code on a key request", () => {
  it("is optional, and blank counts as none", () => {
    const body = { deviceId: "device-123456" };
    expect(startKeyPaymentRoute.body.parse(body).referralCode).toBeUndefined();
    expect(startKeyPaymentRoute.body.parse({ ...body, referralCode: "  " }).referralCode).toBe(
      undefined,
    );
    expect(generateFreeKeyRoute.body.parse({ ...body, referralCode: " CODE " }).referralCode).toBe(
      "CODE",
    );
  });

  it("is refused as an invalid code when far too long", () => {
    const result = startKeyPaymentRoute.body.safeParse({
      deviceId: "device-123456",
      referralCode: "x".repeat(65),
    });
    expect(result.error?.issues[0]?.message).toBe("Invalid referral code");
  });
});
