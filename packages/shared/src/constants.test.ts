import { describe, expect, it } from "vitest";
import { isValidAddress } from "./constants.ts";

const CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

describe("isValidAddress", () => {
  it("takes a checksummed address, and one all in lower or upper case", () => {
    expect(isValidAddress(CHECKSUMMED)).toBe(true);
    expect(isValidAddress(CHECKSUMMED.toLowerCase())).toBe(true);
    expect(isValidAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toBe(true);
  });

  it("refuses a mixed-case address whose checksum does not match (one letter's case changed)", () => {
    expect(isValidAddress(CHECKSUMMED.replace("aAeb", "aaeb"))).toBe(false);
  });

  it("refuses a wrong checksum however often it is asked, after the right one was taken", () => {
    const wrong = CHECKSUMMED.replace("aAeb", "aaeb");
    expect([isValidAddress(CHECKSUMMED), isValidAddress(wrong), isValidAddress(wrong)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("refuses anything but 0x and 40 hex digits", () => {
    for (const value of [
      "",
      "0x",
      CHECKSUMMED.slice(0, 41),
      `${CHECKSUMMED}0`,
      CHECKSUMMED.replace("0x", "0X"),
      ` ${CHECKSUMMED}`,
      CHECKSUMMED.replace("5", "g"),
    ])
      expect(isValidAddress(value)).toBe(false);
  });
});
