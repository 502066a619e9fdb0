import { describe, expect, it } from "vitest";
import {
  classifyLine,
  formatClock,
  outcomeOfLine,
  outcomeOfStatus,
  toLineSegments,
} from "./terminal-line.ts";

const HASH = `0x${"ab".repeat(32)}`;

describe("classifyLine", () => {
  it("colors by keyword, SUCCESS first, then FAILED/ERROR, then PASSED", () => {
    expect(classifyLine("SUCCESS bundle 1/1 included in block 12")).toBe("success");
    expect(classifyLine("FAILED bundle 2/2: no builder")).toBe("error");
    expect(classifyLine("ERROR builder x refused bundle 1: low tip")).toBe("error");
    expect(classifyLine("PASSED simulation: the token will be 0x1")).toBe("passed");
    expect(classifyLine("Sending bundle 1/1")).toBe("plain");
    expect(classifyLine("success in lower case")).toBe("plain");
    expect(classifyLine("PASSED then FAILED")).toBe("error");
  });
});

describe("toLineSegments", () => {
  it("keeps plain text as one segment", () => {
    expect(toLineSegments("hello world", null)).toEqual([{ kind: "text", text: "hello world" }]);
  });

  it("turns URLs into links without their trailing punctuation", () => {
    expect(toLineSegments("see https://four.meme/token/0x1. done", null)).toEqual([
      { kind: "text", text: "see " },
      { kind: "url", text: "https://four.meme/token/0x1", href: "https://four.meme/token/0x1" },
      { kind: "text", text: ". done" },
    ]);
  });

  it("links a transaction hash to the explorer", () => {
    expect(toLineSegments(`tx ${HASH} sent`, "https://testnet.bscscan.com/")).toEqual([
      { kind: "text", text: "tx " },
      { kind: "tx", text: HASH, href: `https://testnet.bscscan.com/tx/${HASH}` },
      { kind: "text", text: " sent" },
    ]);
  });

  it("keeps a hash unlinked on a chain without an explorer", () => {
    expect(toLineSegments(HASH, null)).toEqual([{ kind: "tx", text: HASH, href: null }]);
  });

  it("ignores addresses and longer hex runs", () => {
    const address = `0x${"1".repeat(40)}`;
    expect(toLineSegments(`token ${address}`, "https://x")).toEqual([
      { kind: "text", text: `token ${address}` },
    ]);
    expect(toLineSegments(`${HASH}00`, "https://x")).toEqual([{ kind: "text", text: `${HASH}00` }]);
  });

  it("does not relink a hash inside a URL", () => {
    const url = `https://bscscan.com/tx/${HASH}`;
    expect(toLineSegments(url, "https://bscscan.com")).toEqual([
      { kind: "url", text: url, href: url },
    ]);
  });

  it("reassembles to the original line", () => {
    const line = `SUCCESS Launch complete https://a.b/c?d=1, tx ${HASH}; block 7`;
    const text = toLineSegments(line, null)
      .map((s) => s.text)
      .join("");
    expect(text).toBe(line);
  });
});

describe("formatClock", () => {
  it("pads hours, minutes and seconds", () => {
    expect(formatClock(new Date(2025, 0, 1, 7, 5, 9))).toBe("07:05:09");
    expect(formatClock(new Date(2025, 0, 1, 23, 59, 0))).toBe("23:59:00");
  });
});

describe("outcomeOfLine", () => {
  it("recognises the launch's own verdict", () => {
    expect(outcomeOfLine("SUCCESS Launch complete: token 0x1 in block 9")).toBe("success");
    expect(outcomeOfLine("SUCCESS Token launched at 0x1")).toBe("success");
    expect(outcomeOfLine("FAILED Launch failed: simulation reverted: x")).toBe("failure");
    expect(outcomeOfLine("ERROR launch aborted: insufficient balance")).toBe("failure");
    expect(outcomeOfLine("Launch failed: builder refused")).toBe("failure");
  });

  it("reads the launch service's own verdict lines", () => {
    expect(
      outcomeOfLine(
        "SUCCESS PEPE launched: token 0x1 created in block 9, 5/5 wallets bought in the same block",
      ),
    ).toBe("success");
    expect(outcomeOfLine("SUCCESS the launch of PEPE finished while the server restarted")).toBe(
      "success",
    );
    expect(outcomeOfLine("FAILED launch: simulation reverted: x")).toBe("failure");
    expect(outcomeOfLine(`SUCCESS create transaction ${HASH}`)).toBeNull();
    expect(outcomeOfLine(`SUCCESS buy by wallet 0x2: ${HASH}`)).toBeNull();
    expect(outcomeOfLine("ERROR nothing was charged again: the draft stays paid")).toBeNull();
    expect(outcomeOfLine("Launching PEPE (PEPE)...")).toBeNull();
  });

  it("ignores per-step lines", () => {
    expect(outcomeOfLine("SUCCESS bundle 1/2 included in block 12")).toBeNull();
    expect(outcomeOfLine("FAILED bundle 2/2: no builder")).toBeNull();
    expect(outcomeOfLine("ERROR builder x refused bundle 1: low tip")).toBeNull();
    expect(outcomeOfLine("PASSED simulation")).toBeNull();
  });
});

describe("outcomeOfStatus", () => {
  it("reads executed as success and paid-after-executing as failure", () => {
    expect(outcomeOfStatus("executed", false)).toBe("success");
    expect(outcomeOfStatus("paid", true)).toBe("failure");
    expect(outcomeOfStatus("paid", false)).toBeNull();
    expect(outcomeOfStatus("executing", true)).toBeNull();
    expect(outcomeOfStatus(undefined, true)).toBeNull();
  });
});
