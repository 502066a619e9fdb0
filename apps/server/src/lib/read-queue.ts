import type { IncomingMessage } from "node:http";
import type { FastifyInstance, onRequestHookHandler } from "fastify";

/**
 * At most `limit` reads run at once in this process; the rest wait their turn, first come
 * first served. Under a flood each read then waits once, at the door, instead of at every
 * database query and chain call it makes behind all the others (where a read of four queries
 * waited four times as long as a read of one), so the slowest answer stays close to the
 * average. A read whose client hung up while it waited is never started.
 */
export class ReadQueue {
  private running = 0;
  private readonly waiting: Array<{ admit: (run: boolean) => void; raw: IncomingMessage }> = [];

  constructor(readonly limit: number) {}

  /** Resolves true when the read may run, false when its client is gone (nothing to run). */
  enter(raw: IncomingMessage): Promise<boolean> {
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve(true);
    }
    return new Promise((admit) => this.waiting.push({ admit, raw }));
  }

  /** A running read answered (or failed): the next waiting one whose client is there runs. */
  leave(): void {
    for (let next = this.waiting.shift(); next; next = this.waiting.shift()) {
      if (!isGone(next.raw)) {
        next.admit(true);
        return;
      }
      next.admit(false);
    }
    this.running--;
  }

  get queued(): number {
    return this.waiting.length;
  }
}

const isGone = (raw: IncomingMessage): boolean => raw.destroyed || raw.socket?.destroyed === true;

declare module "fastify" {
  interface FastifyRequest {
    readTurn: boolean;
  }
}

/** How long a read keeps its place before it gives it up (it goes on, uncounted). */
export const READ_HOLD_MS = 30_000;

/**
 * Puts every read route (GET, and POSTs marked `reads`) behind `queue`: its wait joins the
 * route's request hooks where this is registered, after the rate limit and before the
 * access check, so a waiting read costs nothing but its place in line. A read still running
 * after `holdMs` (a chain call that never answers) gives its place to the next: reads that
 * hang cannot stop the others.
 */
export const registerReadQueue = (
  app: FastifyInstance,
  queue: ReadQueue,
  isRead: (method: string, url: string) => boolean,
  holdMs = READ_HOLD_MS,
): void => {
  app.decorateRequest("readTurn", false);
  const timers = new WeakMap<object, NodeJS.Timeout>();
  const leave = async (request: { readTurn: boolean }) => {
    clearTimeout(timers.get(request));
    if (!request.readTurn) return;
    request.readTurn = false;
    queue.leave();
  };
  const wait: onRequestHookHandler = async (request, reply) => {
    if (!(await queue.enter(request.raw))) {
      // The client hung up while waiting: end quietly, without running anything.
      reply.hijack();
      request.raw.destroy();
      return;
    }
    request.readTurn = true;
    const timer = setTimeout(() => void leave(request), holdMs);
    timer.unref();
    timers.set(request, timer);
    // The response's "close" comes once, however the read ends: answered, failed, or its client
    // gone mid-read. Neither onResponse nor onRequestAbort comes for a POST whose client hung up
    // after its body was read (Node marks it complete, not aborted, and the reply is never
    // written): a burst of polls that stopped at once kept every place until the hold let go,
    // and every read, /api/health included, waited behind them.
    reply.raw.once("close", () => void leave(request));
    if (reply.raw.destroyed) void leave(request);
  };
  app.addHook("onResponse", leave);
  app.addHook("onRequestAbort", leave);
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat().filter((method) => method !== "HEAD");
    if (!methods.some((method) => isRead(method, route.url))) return;
    const existing = route.onRequest;
    const hooks = Array.isArray(existing) ? existing : existing ? [existing] : [];
    route.onRequest = [...hooks, wait];
  });
};
