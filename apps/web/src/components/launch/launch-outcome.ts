import type { DraftStatus } from "@bundler/shared";

export type LaunchOutcome = "success" | "failure";

/**
 * The launch job's own final lines (apps/server launch.service.ts), and nothing else, end the
 * launch: "SUCCESS {symbol} launched: token 0x… created in block …", the recovery's "SUCCESS
 * the launch of {symbol} finished while the server restarted: …", and "FAILED launch: …".
 * Step lines never do, whatever words they carry: a builder's refusal ("ERROR builder b
 * refused bundle 1: launch …") may be followed by another builder's acceptance.
 */
const SUCCESS_LINES = [
  /^SUCCESS .+ launched: token 0x[0-9a-fA-F]{40} /,
  /^SUCCESS the launch of .+ finished while the server restarted: /,
];
const FAILURE_LINE = /^FAILED launch: /;

export function outcomeOfLine(message: string): LaunchOutcome | null {
  const line = message.trim();
  if (SUCCESS_LINES.some((pattern) => pattern.test(line))) return "success";
  if (FAILURE_LINE.test(line)) return "failure";
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
