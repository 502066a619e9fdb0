import { describe, expect, it } from "vitest";
import { EVENT_LOOP_RESOLUTION_MS, RuntimeFigures } from "./runtime-figures.ts";

const block = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** hdr histograms keep 3 significant figures: a value is known to 0.1%. */
const near = (expected: number) => expect.closeTo(expected, -Math.log10(expected * 0.002));

describe("runtime figures", () => {
  it("answers each route's count and percentiles in ms, slowest p99 first", () => {
    const figures = new RuntimeFigures();
    for (let n = 1; n <= 100; n++) figures.record("GET /api/fast", n / 10);
    figures.record("POST /api/slow", 250);
    const { routes } = figures.figures();
    figures.stop();
    expect(routes.map((route) => route.route)).toEqual(["POST /api/slow", "GET /api/fast"]);
    const [slow, fast] = routes;
    expect(slow).toMatchObject({ count: 1, p50Ms: near(250), p99Ms: near(250), maxMs: near(250) });
    expect(fast).toMatchObject({ count: 100, p50Ms: near(5), p99Ms: near(9.9), maxMs: near(10) });
  });

  it("keeps a time under a microsecond as one, and over a minute as a minute", () => {
    const figures = new RuntimeFigures();
    figures.record("GET /api/x", 0);
    figures.record("GET /api/x", 3_600_000);
    const [route] = figures.figures().routes;
    figures.stop();
    expect(route?.count).toBe(2);
    expect(route?.maxMs).toEqual(near(60_000));
  });

  it("measures a held loop as delay beyond the sampling interval", async () => {
    const figures = new RuntimeFigures();
    await sleep(5 * EVENT_LOOP_RESOLUTION_MS);
    block(80);
    await sleep(3 * EVENT_LOOP_RESOLUTION_MS);
    const { eventLoopDelayMs } = figures.figures();
    figures.stop();
    expect(eventLoopDelayMs.max).toBeGreaterThanOrEqual(80 - EVENT_LOOP_RESOLUTION_MS);
    expect(eventLoopDelayMs.p50).toBeLessThan(eventLoopDelayMs.max);
  });

  it("a reset answers the window it ended and starts an empty one", async () => {
    const figures = new RuntimeFigures();
    figures.record("GET /api/x", 12);
    const first = figures.figures().since;
    await sleep(5);
    const ended = figures.reset();
    const fresh = figures.figures();
    figures.stop();
    expect(ended.routes).toHaveLength(1);
    expect(ended.since).toBe(first);
    expect(fresh.routes).toEqual([]);
    expect(fresh.eventLoopDelayMs).toEqual({ p50: 0, p99: 0, max: 0 });
    expect(Date.parse(fresh.since)).toBeGreaterThan(Date.parse(first));
  });
});
