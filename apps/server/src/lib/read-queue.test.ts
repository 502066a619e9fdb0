import type { IncomingMessage } from "node:http";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { ReadQueue, registerReadQueue } from "./read-queue.ts";

const client = (destroyed = false) => ({ destroyed, socket: { destroyed } }) as IncomingMessage;

describe("the read queue", () => {
  it("lets `limit` reads run at once and the next ones in the order they came", async () => {
    const queue = new ReadQueue(2);
    expect(await queue.enter(client())).toBe(true);
    expect(await queue.enter(client())).toBe(true);
    const order: number[] = [];
    const third = queue.enter(client()).then(() => order.push(3));
    const fourth = queue.enter(client()).then(() => order.push(4));
    expect(queue.queued).toBe(2);
    queue.leave();
    queue.leave();
    await Promise.all([third, fourth]);
    expect(order).toEqual([3, 4]);
  });

  it("never starts a read whose client hung up while it waited", async () => {
    const queue = new ReadQueue(1);
    await queue.enter(client());
    const gone = queue.enter(client(true));
    const there = queue.enter(client());
    queue.leave();
    expect(await gone).toBe(false);
    expect(await there).toBe(true);
    expect(queue.queued).toBe(0);
  });

  it("frees its place when the last read leaves", async () => {
    const queue = new ReadQueue(1);
    await queue.enter(client());
    queue.leave();
    expect(await queue.enter(client())).toBe(true);
  });
});

describe("reads behind the queue in a server", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  const serve = async (limit: number, holdMs?: number) => {
    const app = Fastify();
    let running = 0;
    let most = 0;
    const started: string[] = [];
    registerReadQueue(app, new ReadQueue(limit), (method) => method === "GET", holdMs);
    // A read that never answers (a chain call hung) until the server closes.
    const hung: Array<() => void> = [];
    app.addHook("onClose", async () => {
      for (const answer of hung) answer();
    });
    app.get("/hang", (_request, reply) => {
      hung.push(() => void reply.send({ late: true }));
    });
    app.get("/slow/:n", async (request) => {
      const { n } = request.params as { n: string };
      started.push(n);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 150));
      running--;
      return { n };
    });
    app.post("/write", async () => ({ ok: true }));
    await app.listen({ host: "127.0.0.1", port: 0 });
    close = () => app.close();
    const { port } = app.server.address() as AddressInfo;
    return { port, started, most: () => most };
  };

  const get = (port: number, path: string) =>
    new Promise<{ status: number }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
      });
      req.on("error", reject);
      req.end();
    });

  it("answers every read while running no more than the limit at once", async () => {
    const { port, most } = await serve(2);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => get(port, `/slow/${n}`)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(most()).toBe(2);
  });

  it("gives a hung read's place to the next read once it has held it too long", async () => {
    const { port, started } = await serve(1, 200);
    const hung = request({ host: "127.0.0.1", port, path: "/hang" });
    hung.on("error", () => {});
    hung.end();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await get(port, "/slow/1")).status).toBe(200);
    expect(started).toEqual(["1"]);
    hung.destroy();
  });

  it("skips a waiting read whose client gave up", async () => {
    const { port, started } = await serve(1);
    const first = get(port, "/slow/1");
    await new Promise((resolve) => setTimeout(resolve, 30));
    const abandoned = request({ host: "127.0.0.1", port, path: "/slow/2" });
    abandoned.on("error", () => {});
    abandoned.end();
    await new Promise((resolve) => setTimeout(resolve, 30));
    abandoned.destroy();
    const third = get(port, "/slow/3");
    expect((await first).status).toBe(200);
    expect((await third).status).toBe(200);
    expect(started).toEqual(["1", "3"]);
  });
});
