import { describe, expect, it } from "vitest";
import { MAX_WINDOW_BLOCKS, MIN_WINDOW_BLOCKS, windowBlocks } from "./bundleWindow.ts";

describe("a bundle window of some seconds", () => {
  it("spans the blocks those seconds hold at BSC's 0.45 s, rounded up", () => {
    expect(windowBlocks(6, 0.45)).toBe(14n);
  });

  it("spans 6 blocks at a 1 s chain", () => {
    expect(windowBlocks(6, 1)).toBe(6n);
  });

  it("is never shorter than the minimum, however slow the blocks", () => {
    expect(windowBlocks(6, 12)).toBe(MIN_WINDOW_BLOCKS);
  });

  it("is never longer than builders' own default, however fast the blocks", () => {
    expect(windowBlocks(6, 0.01)).toBe(MAX_WINDOW_BLOCKS);
  });

  it("assumes the fallback block time when the chain's could not be measured", () => {
    expect(windowBlocks(6, null, 0.75)).toBe(8n);
    expect(windowBlocks(6, null)).toBe(14n);
  });
});
