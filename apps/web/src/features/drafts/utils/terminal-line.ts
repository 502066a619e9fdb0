import type { DraftStatus } from "@bundler/shared";

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
  /** A transaction hash: `href` is the explorer page, or null on a chain without one. */
  | { kind: "tx"; text: string; href: string | null };

// A URL, or a 0x hash of exactly 64 hex digits (not part of a longer hex run).
const TOKEN_PATTERN = /(https?:\/\/[^\s<>"']+)|(?<![0-9a-zA-Z])(0x[0-9a-fA-F]{64})(?![0-9a-zA-Z])/g;
// Sentence punctuation right after a URL belongs to the sentence, not the link.
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

/**
 * Splits a terminal line into text, links and transaction hashes.
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
  const explorer = explorerUrl?.replace(/\/+$/, "") || null;
  let cursor = 0;
  for (const match of message.matchAll(TOKEN_PATTERN)) {
    const index = match.index ?? 0;
    pushText(message.slice(cursor, index));
    const [, url, hash] = match;
    if (url) {
      const trailing = url.match(TRAILING_PUNCTUATION)?.[0] ?? "";
      const href = url.slice(0, url.length - trailing.length);
      segments.push({ kind: "url", text: href, href });
      pushText(trailing);
    } else if (hash) {
      segments.push({ kind: "tx", text: hash, href: explorer ? `${explorer}/tx/${hash}` : null });
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

export type LaunchOutcome = "success" | "failure";

/**
 * Whether a line ends the launch. Only the launch's own verdict counts
 * ("SUCCESS Launch complete…", "FAILED Launch failed: …"); per-bundle lines such as
 * "SUCCESS bundle 1/2 included" or "FAILED bundle 2/2: …" do not end it.
 */
export function outcomeOfLine(message: string): LaunchOutcome | null {
  const line = message.trim();
  if (/^SUCCESS\b.*\blaunch(ed)?\b/i.test(line)) return "success";
  if (/^(FAILED|ERROR)\b.*\blaunch\b/i.test(line) || /\blaunch failed\b/i.test(line)) {
    return "failure";
  }
  return null;
}

/**
 * The verdict read from the draft itself, for when a line is missed: executed means
 * launched; back at paid after having been seen executing means the job gave up.
 */
export function outcomeOfStatus(
  status: DraftStatus | undefined,
  seenExecuting: boolean,
): LaunchOutcome | null {
  if (status === "executed") return "success";
  if (status === "paid" && seenExecuting) return "failure";
  return null;
}
