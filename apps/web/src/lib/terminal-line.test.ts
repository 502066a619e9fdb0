import { describe, expect, it } from "vitest";
import { classifyLine, explorerTxUrl, formatClock, toLineSegments } from "./terminal-line.ts";

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
    expect(toLineSegments(HASH, null)).toEqual([{ kind: "tx", text: HASH, href: `/tx/${HASH}` }]);
  });

  it("writes an address checksummed, linked to its page, whatever case the line used", () => {
    const address = "0x9aa694244134a23d48408760eec690c53cdaf4b0";
    const checksummed = "0x9Aa694244134a23D48408760eEc690c53CDaF4B0";
    expect(toLineSegments(`token ${address}`, "https://x")).toEqual([
      { kind: "text", text: "token " },
      { kind: "address", text: checksummed, href: `https://x/address/${checksummed}` },
    ]);
    expect(toLineSegments(address, null)).toEqual([
      { kind: "address", text: checksummed, href: `/address/${checksummed}` },
    ]);
  });

  it("ignores longer hex runs", () => {
    expect(toLineSegments(`${HASH}00`, "https://x")).toEqual([{ kind: "text", text: `${HASH}00` }]);
    const long = `0x${"1".repeat(41)}`;
    expect(toLineSegments(long, "https://x")).toEqual([{ kind: "text", text: long }]);
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

describe("explorerTxUrl", () => {
  it("joins the explorer and the hash without doubling the slash", () => {
    expect(explorerTxUrl("https://bscscan.com/", HASH)).toBe(`https://bscscan.com/tx/${HASH}`);
  });

  it("points at the app's own transaction page without an explorer", () => {
    expect(explorerTxUrl(null, HASH)).toBe(`/tx/${HASH}`);
    expect(explorerTxUrl("", HASH)).toBe(`/tx/${HASH}`);
  });
});
