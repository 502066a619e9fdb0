import { describe, expect, it } from "vitest";
import { describeRevert, explainRevert } from "./errors.ts";

describe("the launchpad's revert codes in words", () => {
  it("says SO is a sale too small to pay its own fee (trade-guide §5: funds <= protocol fee)", () => {
    expect(describeRevert("SO")).toBe(
      "the sale is too small: it would fetch no more than the launchpad's fee",
    );
  });

  it("says A is an X Mode token bought with a public buy (four-meme-ai errors.md)", () => {
    expect(explainRevert("A")).toBe(
      "A: this is an X Mode token, which four.meme sells only through its own signed buy",
    );
  });
});
