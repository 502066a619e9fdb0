/** Live log lines (launch terminal, dispersal log): colors, links and timestamps. */
import { getAddress } from "viem";
import { explorerAddressUrl } from "./explorer-links.ts";

export type LineTone = "success" | "error" | "passed" | "plain";

/** SPEC §2: SUCCESS green, FAILED or ERROR red, PASSED blue (checked in that order). */
export function classifyLine(message: string): LineTone {
  if (message.includes("SUCCESS")) return "success";
  if (message.includes("FAILED") || message.includes("ERROR")) return "error";
  if (message.includes("PASSED")) return "passed";
  return "plain";
}

export type LineSegment =
  | { kind: "text"; text: string }
  | { kind: "url"; text: string; href: string }
  /** A transaction hash: `href` is its explorer page, or the app's own transaction page. */
  | { kind: "tx"; text: string; href: string }
  /** An address, checksummed as every screen writes it: `href` is its explorer or app page. */
  | { kind: "address"; text: string; href: string };

// A URL, a 0x hash of exactly 64 hex digits, or an address of exactly 40 (neither part of a
// longer hex run).
const TOKEN_PATTERN =
  /(https?:\/\/[^\s<>"']+)|(?<![0-9a-zA-Z])(0x[0-9a-fA-F]{64})(?![0-9a-zA-Z])|(?<![0-9a-zA-Z])(0x[0-9a-fA-F]{40})(?![0-9a-zA-Z])/g;
// Sentence punctuation right after a URL belongs to the sentence, not the link.
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

/**
 * A transaction's page: on the block explorer, or, on a chain without one (the local chain),
 * the app's own transaction page (`/tx/{hash}`), which reads it from the server.
 */
export function explorerTxUrl(explorerUrl: string | null | undefined, hash: string): string {
  const explorer = explorerUrl?.replace(/\/+$/, "");
  return explorer ? `${explorer}/tx/${hash}` : `/tx/${hash}`;
}

/**
 * Splits a terminal line into text, links, transaction hashes and addresses (checksummed, as
 * every other screen writes them, whatever case the server's line used).
 *
 * @example
 * toLineSegments("tx 0xab…(64 hex)", "https://bscscan.com");
 * // [{ kind: "text", text: "tx " }, { kind: "tx", text: "0xab…", href: "https://bscscan.com/tx/0xab…" }]
 */
export function toLineSegments(message: string, explorerUrl: string | null): LineSegment[] {
  const segments: LineSegment[] = [];
  const pushText = (text: string) => {
    if (!text) return;
    const last = segments.at(-1);
    if (last?.kind === "text") last.text += text;
    else segments.push({ kind: "text", text });
  };
  let cursor = 0;
  for (const match of message.matchAll(TOKEN_PATTERN)) {
    const index = match.index ?? 0;
    pushText(message.slice(cursor, index));
    const [, url, hash, address] = match;
    if (url) {
      const trailing = url.match(TRAILING_PUNCTUATION)?.[0] ?? "";
      const href = url.slice(0, url.length - trailing.length);
      segments.push({ kind: "url", text: href, href });
      pushText(trailing);
    } else if (hash) {
      segments.push({ kind: "tx", text: hash, href: explorerTxUrl(explorerUrl, hash) });
    } else if (address) {
      const checksummed = getAddress(address.toLowerCase());
      segments.push({
        kind: "address",
        text: checksummed,
        href: explorerAddressUrl(explorerUrl, checksummed),
      });
    }
    cursor = index + match[0].length;
  }
  pushText(message.slice(cursor));
  return segments;
}

/** HH:MM:SS in local time, zero-padded. */
export function formatClock(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((part) => String(part).padStart(2, "0"))
    .join(":");
}
