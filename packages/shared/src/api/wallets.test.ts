import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeRequestProblem } from "./field-labels.ts";
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

  it("refuses a key longer than 100 characters with the limit in words and the key's row", () => {
    const problem = describeRequestProblem(importWalletsRoute.body, {
      privateKeys: [`0x${"a".repeat(64)}`, "k".repeat(101)],
    });
    expect(problem).toEqual({
      error:
        "Private key 2 is longer than 100 characters: check that the keys are separated by commas",
      field: "privateKeys.1",
      row: 2,
    });
  });
});
