import {
  createHistogram,
  type IntervalHistogram,
  monitorEventLoopDelay,
  type RecordableHistogram,
} from "node:perf_hooks";
import type { RuntimeResponse, RuntimeRoute } from "@bundler/shared";
import type { FastifyInstance } from "fastify";

/** How often the event loop's delay is sampled, ms (Node's default). */
export const EVENT_LOOP_RESOLUTION_MS = 10;
/** Server times are kept in microseconds, up to a minute (longer ones count as a minute). */
const MAX_MICROSECONDS = 60_000_000;

type Figures = Omit<RuntimeResponse, "success">;

/**
 * What this process measures of itself, in memory, for a window that a reset starts afresh:
 * how late its event loop runs (a loop held by one task delays every request behind it) and
 * how long each route takes from its arrival to its answer (the read queue's wait included),
 * as hdr histograms (3 significant figures).
 */
export class RuntimeFigures {
  private readonly loop: IntervalHistogram;
  private readonly routes = new Map<string, RecordableHistogram>();
  private since = new Date();

  constructor() {
    this.loop = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
    this.loop.enable();
  }

  /** One answer of `route` ("GET /api/draft/:id") that took `ms`. */
  record(route: string, ms: number): void {
    let histogram = this.routes.get(route);
    if (!histogram) {
      histogram = createHistogram({ lowest: 1, highest: MAX_MICROSECONDS, figures: 3 });
      this.routes.set(route, histogram);
    }
    histogram.record(Math.min(MAX_MICROSECONDS, Math.max(1, Math.round(ms * 1000))));
  }

  /** The window's figures: event-loop delay beyond the sampling interval, routes slowest first. */
  figures(): Figures {
    // Each sample is the time between two timer runs: the interval itself is not a delay.
    const delay = (nanoseconds: number) =>
      this.loop.count === 0 ? 0 : round(Math.max(0, nanoseconds / 1e6 - EVENT_LOOP_RESOLUTION_MS));
    const routes: RuntimeRoute[] = [...this.routes].map(([route, histogram]) => ({
      route,
      count: histogram.count,
      p50Ms: round(histogram.percentile(50) / 1000),
      p99Ms: round(histogram.percentile(99) / 1000),
      maxMs: round(histogram.max / 1000),
    }));
    return {
      since: this.since.toISOString(),
      eventLoopDelayMs: {
        p50: delay(this.loop.percentile(50)),
        p99: delay(this.loop.percentile(99)),
        max: delay(this.loop.max),
      },
      routes: routes.sort((a, b) => b.p99Ms - a.p99Ms || a.route.localeCompare(b.route)),
    };
  }

  /** Ends the window: answers its figures and starts a fresh one. */
  reset(): Figures {
    const ended = this.figures();
    this.loop.reset();
    this.routes.clear();
    this.since = new Date();
    return ended;
  }

  stop(): void {
    this.loop.disable();
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Times every answered `/api/` route into `figures`, keyed by method and URL pattern. */
export const registerRuntimeFigures = (app: FastifyInstance, figures: RuntimeFigures): void => {
  app.addHook("onResponse", (request, reply, done) => {
    const url = request.routeOptions.url;
    if (url?.startsWith("/api/")) figures.record(`${request.method} ${url}`, reply.elapsedTime);
    done();
  });
  app.addHook("onClose", (_app, done) => {
    figures.stop();
    done();
  });
};
