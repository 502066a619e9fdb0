import { describe, expect, it } from "vitest";
import { outcomeOfLine, outcomeOfStatus } from "./launch-outcome.ts";

const HASH = `0x${"ab".repeat(32)}`;
const TOKEN = `0x${"cd".repeat(20)}`;

describe("outcomeOfLine", () => {
  it("reads the launch job's success line as success", () => {
    expect(
      outcomeOfLine(
        `SUCCESS MCAT launched: token ${TOKEN} created in block 9, 5/5 wallets bought in the same block`,
      ),
    ).toBe("success");
  });

  it("reads the success line of a symbol with spaces as success", () => {
    expect(outcomeOfLine(`SUCCESS MOON CAT launched: token ${TOKEN} created in block 9`)).toBe(
      "success",
    );
  });

  it("reads the recovery's success line as success", () => {
    expect(
      outcomeOfLine(
        `SUCCESS the launch of MCAT finished while the server restarted: token ${TOKEN}`,
      ),
    ).toBe("success");
  });

  it("reads the launch job's failure line as failure", () => {
    expect(outcomeOfLine("FAILED launch: simulation reverted: insufficient fee")).toBe("failure");
  });

  it("reads the recovery's failure line as failure", () => {
    expect(
      outcomeOfLine(
        "FAILED launch: the server restarted during the launch and the token was not created; the draft stays paid, execute it again",
      ),
    ).toBe("failure");
  });

  it("does not end the launch on a builder's refusal that mentions the launch", () => {
    expect(
      outcomeOfLine("ERROR builder blockrazor refused bundle 1: launch tx underpriced"),
    ).toBeNull();
    expect(
      outcomeOfLine("ERROR builder dev refused bundle 1: the launch failed to simulate"),
    ).toBeNull();
  });

  it("does not end the launch on a failed bundle that mentions the launch", () => {
    expect(outcomeOfLine("FAILED bundle 2/2: launch buys missed the block")).toBeNull();
  });

  it("does not end the launch on the delayed buy's lines", () => {
    expect(
      outcomeOfLine("FAILED delayed buy by 0x2: the launch token has no liquidity"),
    ).toBeNull();
    expect(outcomeOfLine(`SUCCESS delayed buy by 0x2: ${HASH}`)).toBeNull();
  });

  it("does not end the launch on step lines", () => {
    expect(outcomeOfLine(`SUCCESS create transaction ${HASH}`)).toBeNull();
    expect(outcomeOfLine(`SUCCESS buy by wallet 0x2: ${HASH}`)).toBeNull();
    expect(outcomeOfLine("SUCCESS bundle 1/2 included in block 12")).toBeNull();
    expect(outcomeOfLine("PASSED simulation: the token will be 0x1")).toBeNull();
    expect(outcomeOfLine("Launching Moon Cat (MCAT)...")).toBeNull();
    expect(
      outcomeOfLine(
        "ERROR nothing was charged again: the draft stays paid, fix the problem and execute it again",
      ),
    ).toBeNull();
  });
});

describe("outcomeOfStatus", () => {
  it("reads an executed draft as success", () => {
    expect(outcomeOfStatus("executed", false)).toBe("success");
  });

  it("reads a draft back at paid after executing as failure", () => {
    expect(outcomeOfStatus("paid", true)).toBe("failure");
  });

  it("reads no verdict from a draft still executing or never seen executing", () => {
    expect(outcomeOfStatus("paid", false)).toBeNull();
    expect(outcomeOfStatus("executing", true)).toBeNull();
    expect(outcomeOfStatus(undefined, true)).toBeNull();
  });
});
