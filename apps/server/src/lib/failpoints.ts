/**
 * Named points in the code where a test makes the process die as a crash would (SIGKILL: no
 * `finally`, no `catch`, no shutdown hook runs), the current work fail as an RPC or database
 * error would (an exception), or something of its own happen right there (a function the work
 * waits for: a race forced, such as money arriving between a check and the write it decided).
 * Unarmed, a failpoint costs one Map lookup.
 *
 * A server started with FAILPOINTS="launch.submitted,tx.recorded" (read by config/env.ts) dies
 * at the first of them it reaches; tests in the same process arm them with `armFailpoint`.
 */
export type FailpointAction = "kill" | "throw" | (() => Promise<unknown>);

const armed = new Map<string, { action: FailpointAction; times: number }>();

export class FailpointError extends Error {
  override readonly name = "FailpointError";
  constructor(readonly point: string) {
    super(`failpoint ${point}`);
  }
}

/** Arms `name` for the next `times` passes (default: every pass until disarmed). */
export const armFailpoint = (
  name: string,
  action: FailpointAction,
  times = Number.POSITIVE_INFINITY,
): void => {
  armed.set(name, { action, times });
};

export const disarmFailpoints = (): void => armed.clear();

/** Arms every name in a FAILPOINTS list to kill the process. */
export const armFailpointsFromList = (list: string | undefined): void => {
  for (const name of (list ?? "").split(",")) if (name.trim()) armFailpoint(name.trim(), "kill");
};

export const failpoint = async (name: string): Promise<void> => {
  const point = armed.get(name);
  if (!point || point.times <= 0) return;
  point.times -= 1;
  if (typeof point.action === "function") {
    await point.action();
    return;
  }
  if (point.action === "kill") {
    process.kill(process.pid, "SIGKILL");
    // SIGKILL is not handled: nothing after this runs, but wait for it all the same.
    await new Promise(() => {});
  }
  throw new FailpointError(name);
};
