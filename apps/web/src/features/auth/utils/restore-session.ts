import type { Role } from "@bundler/shared";
import { ApiError } from "../../../lib/api-error.ts";
import type { KeyStore } from "../../../lib/key-store.ts";
import type { SessionInput } from "../hooks/use-auth.ts";
import { decideStartup, startupFailure } from "./stored-session.ts";

export interface RestoreDeps {
  store: Pick<KeyStore, "load" | "clear">;
  /** Asks the server; throws an ApiError when it refuses or cannot answer. */
  validate: (key: string) => Promise<{ role: Role }>;
  /** Stores the key as validated now; never throws. */
  save: (session: SessionInput) => Promise<void>;
  now: () => number;
}

export type StartupResult =
  | { kind: "session"; session: SessionInput }
  | { kind: "anonymous" }
  | { kind: "unreachable"; title: string; hint: string };

const NOTHING_STORED = { key: null, role: null, lastValidatedAt: null };

/** Resolves the stored key at start-up (SPEC §4): logged in, logged out, or no answer yet. */
export async function restoreSession(deps: RestoreDeps): Promise<StartupResult> {
  const stored = await deps.store.load().catch(() => NOTHING_STORED);
  const decision = decideStartup(stored, deps.now());
  if (decision.kind === "none") return { kind: "anonymous" };
  if (decision.kind === "trusted") {
    return { kind: "session", session: { key: decision.key, role: decision.role } };
  }
  let role: Role;
  try {
    ({ role } = await deps.validate(decision.key));
  } catch (error) {
    if (!(error instanceof ApiError)) console.error(error);
    const failure = startupFailure(error);
    if (failure.kind === "unreachable") return failure;
    await deps.store.clear().catch(() => undefined);
    return { kind: "anonymous" };
  }
  await deps.save({ key: decision.key, role });
  return { kind: "session", session: { key: decision.key, role } };
}
