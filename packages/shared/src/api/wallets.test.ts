import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IMPORTED_KEY_MAX_CHARS, importWalletsRoute } from "./wallets.ts";

const importing = (privateKeys: string[]) => importWalletsRoute.body.safeParse({ privateKeys });

describe("importWalletsRoute body", () => {
  it("accepts keys of up to 100 characters, valid or not (invalid ones are dropped later)", () => {
    expect(IMPORTED_KEY_MAX_CHARS).toBe(100);
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: IMPORTED_KEY_MAX_CHARS }), { minLength: 1, maxLength: 20 }),
        (keys) => importing(keys).success,
      ),
    );
  });

  it("refuses a key longer than 100 characters with the limit in words", () => {
    const result = importing([`0x${"a".repeat(64)}`, "k".repeat(101)]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      "A private key is at most 100 characters: check that the keys are separated by commas",
    );
  });
});
