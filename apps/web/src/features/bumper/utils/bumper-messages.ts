import { ApiError } from "../../../lib/api-error.ts";

/** The actions whose failures §8 names: "Failed to {action}". */
export type BumperAction =
  | "load bumpers"
  | "generate bumper"
  | "start bumper"
  | "stop bumper"
  | "withdraw funds";

/**
 * What a failed bumper call says (SPEC §8): "Failed to {action}" first, then the server's
 * reason when it sent one ("Failed to start bumper: Fund the bumper address..."); "Failed to
 * {action}. Please try again." when no answer came at all (offline, an exception).
 */
export function bumperFailure(error: unknown, action: BumperAction): string {
  if (error instanceof ApiError) {
    if (error.serverMessage) return `Failed to ${action}: ${error.serverMessage}`;
    if (error.status !== null) return `Failed to ${action}`;
  }
  return `Failed to ${action}. Please try again.`;
}

export const BUMPER_SUCCESS = {
  generated: "Bumper generated successfully! Send funds to the bumper address to get started.",
  existing: "You already have a bumper for this token. It has been loaded.",
  started: "Bumper started successfully!",
  stopped: "Bumper stopped successfully!",
  withdrew: (amount: string, address: string) =>
    `Successfully withdrew ${amount} BNB to ${address}`,
} as const;

/** The banner over a bumper that made every bump it was configured for. */
export const completedText = (bumps: number) =>
  `This bumper has completed all ${bumps} configured bumps. Create a new bumper to continue.`;

/** Completed bumpers sit under the Completed tab; every other one under Active. */
export const isCompleted = (bumper: { status: string }) => bumper.status === "completed";
