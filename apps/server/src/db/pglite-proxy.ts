import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

/**
 * The embedded database in a worker thread (pglite-worker.mjs), spoken to by message: PGlite's
 * queries (WebAssembly Postgres, a few hundred microseconds to many milliseconds of CPU each)
 * run there instead of on the server's request loop. This side is the part of PGlite's client
 * that drizzle's `drizzle-orm/pglite` driver, pg-boss and `txExecutor` use: `query`, `exec`,
 * `transaction`, `listen`, `close`. Every query crosses as its text, its parameters and its
 * options' plain parts, and its rows cross back (structured clone).
 *
 * - Transactions run inside PGlite's own `transaction` in the worker, whose mutex makes every
 *   other query and transaction wait until COMMIT or ROLLBACK: a query sent from outside an
 *   open transaction runs after it, never in it.
 * - Parsers (functions) cannot cross: a query's parsers must keep Postgres's text (drizzle's
 *   identity parsers for dates, timestamps and intervals); the worker gets their type OIDs and
 *   makes its own.
 * - A failed query rejects with an Error carrying the database's fields (`code`, `constraint`,
 *   `detail`, `table`...), its stack the caller's.
 * - A worker that dies rejects every call waiting on it and every later one.
 * - The worker keeps the process alive only while calls wait on it.
 */

export interface Field {
  name: string;
  dataTypeID: number;
}

export interface Results<T = Record<string, unknown>> {
  rows: T[];
  affectedRows?: number;
  fields: Field[];
}

export interface QueryOptions {
  rowMode?: "array" | "object";
  /** Only parsers that keep Postgres's text (`(value) => value`) cross to the worker. */
  parsers?: Record<number | string, (value: string, typeId: number) => unknown>;
}

/** What a transaction's statements run on (PGlite's `Transaction`, as drizzle uses it). */
export interface PgliteTransaction {
  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
  readonly closed: boolean;
}

/** The messages to the worker; each is answered once by a `Reply` with its id. */
export type Request =
  | {
      id: number;
      op: "query";
      text: string;
      params: unknown[] | undefined;
      rowMode?: "array" | "object";
      /** Type OIDs whose values stay Postgres's text. */
      textTypes?: number[];
      tx?: number;
    }
  | { id: number; op: "exec"; text: string; tx?: number }
  /** Answered with the transaction's id once BEGIN ran. */
  | { id: number; op: "begin" }
  | { id: number; op: "end"; tx: number; commit: boolean }
  /** Answered with the listener's id once LISTEN ran; its notifications carry that id. */
  | { id: number; op: "listen"; channel: string }
  | { id: number; op: "unlisten"; listener: number }
  | { id: number; op: "close" };

/** A database error's fields, as the worker sends them. */
type PlainError = { name: string; message: string; stack?: string } & Record<string, unknown>;

/** The messages from the worker. */
export type Reply =
  | { id: number; value: unknown }
  | { id: number; error: PlainError }
  | { notification: number; payload: string }
  | { ready: true }
  | { ready: false; error: PlainError };

type Call = {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Where the call was made: a failure's stack is the caller's, not the worker's. */
  site: { stack?: string };
};

/** The worker's file: beside this one in the sources, beside main.mjs in the bundle. */
const WORKER_URL = new URL("./pglite-worker.mjs", import.meta.url);

/**
 * PGlite's WebAssembly, compiled once per process and shared with every worker (a module
 * crosses threads without compiling again): PGlite caches it per thread, and each test
 * database is a new thread. Undefined where PGlite keeps it elsewhere: it compiles its own.
 */
let compiled: Promise<WebAssembly.Module | undefined> | undefined;
const pgliteWasm = (): Promise<WebAssembly.Module | undefined> => {
  compiled ??= (async () => {
    const file = path.join(
      path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")),
      "pglite.wasm",
    );
    if (!existsSync(file)) return undefined;
    return WebAssembly.compile(await readFile(file));
  })();
  return compiled;
};

/** Identity parsers' type OIDs, worked out once per drizzle query config. */
const textTypesOf = new WeakMap<object, number[]>();
const textTypes = (parsers: NonNullable<QueryOptions["parsers"]>): number[] => {
  let oids = textTypesOf.get(parsers);
  if (!oids) {
    oids = Object.entries(parsers).map(([oid, parse]) => {
      const probe = "2026-01-01 00:00:00";
      if (parse(probe, Number(oid)) !== probe)
        throw new Error(
          `a parser for type ${oid} cannot run in the database's worker (only ones that keep the text)`,
        );
      return Number(oid);
    });
    textTypesOf.set(parsers, oids);
  }
  return oids;
};

/** The worker's error as an Error of this thread, with the caller's stack. */
const rebuild = (plain: PlainError, site: { stack?: string }): Error => {
  const error = new Error(plain.message) as Error & Record<string, unknown>;
  for (const [key, value] of Object.entries(plain))
    if (key !== "message" && key !== "stack") error[key] = value;
  const frames = site.stack?.split("\n").slice(1).join("\n");
  error.stack = `${plain.name}: ${plain.message}${frames ? `\n${frames}` : ""}`;
  return error;
};

export class PgliteProxy {
  private readonly pending = new Map<number, Call>();
  private readonly notified = new Map<number, (payload: string) => void>();
  private nextId = 1;
  /** Why calls fail at once: closed, or the worker died. */
  private ended: string | undefined;
  private readonly exited: Promise<void>;
  private readonly lost: Array<(why: string) => void> = [];

  private constructor(private readonly worker: Worker) {
    worker.on("message", (reply: Reply) => this.onReply(reply));
    let failure: Error | undefined;
    worker.on("error", (error) => {
      failure = error;
    });
    this.exited = new Promise((resolve) => {
      worker.on("exit", (code) => {
        const died = this.ended === undefined;
        this.end(
          this.ended ??
            `the embedded database's worker ended (exit code ${code}${failure ? `: ${failure.message}` : ""})`,
        );
        if (died) for (const tell of this.lost) tell(this.ended as string);
        resolve();
      });
    });
  }

  /** Starts the worker and its PGlite in `dataDir` (memory when undefined), or from a dump. */
  static async open(options: { dataDir?: string | undefined; from?: Blob }): Promise<PgliteProxy> {
    const loadDataDir = options.from ? await options.from.arrayBuffer() : undefined;
    const worker = new Worker(WORKER_URL, {
      workerData: { dataDir: options.dataDir, loadDataDir, pgliteWasmModule: await pgliteWasm() },
      transferList: loadDataDir ? [loadDataDir] : [],
    });
    const site = {};
    Error.captureStackTrace(site, PgliteProxy.open);
    let onError: (error: Error) => void = () => {};
    let onExit: (code: number) => void = () => {};
    const ready = await new Promise<Reply>((resolve, reject) => {
      onError = reject;
      onExit = (code) =>
        reject(
          new Error(`the embedded database's worker ended while starting (exit code ${code})`),
        );
      worker.once("message", resolve);
      worker.on("error", onError);
      worker.on("exit", onExit);
    });
    // Only these: removing every listener would remove the worker's own.
    worker.off("error", onError);
    worker.off("exit", onExit);
    if (!("ready" in ready) || !ready.ready) {
      await worker.terminate();
      throw "error" in ready ? rebuild(ready.error, site) : new Error("the worker did not start");
    }
    worker.unref();
    return new PgliteProxy(worker);
  }

  /** `tell` hears once, with why, that the worker died (never after `close`). */
  onLost(tell: (why: string) => void): void {
    this.lost.push(tell);
  }

  /** True once `close` ran or the worker died. */
  get closed(): boolean {
    return this.ended !== undefined;
  }

  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    return this.call(queryRequest(text, params, options)) as Promise<Results<T>>;
  }

  /** Several statements in one text (the simple protocol); one result each. */
  exec(text: string): Promise<Results[]> {
    return this.call({ op: "exec", text }) as Promise<Results[]>;
  }

  /**
   * Runs `fn` in a transaction: COMMIT when it resolves, ROLLBACK when it throws (and the
   * error is thrown on). Until then every other query and transaction waits in the worker.
   */
  async transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
    const id = (await this.call({ op: "begin" })) as number;
    let closed = false;
    const open = () => {
      if (closed) throw new Error("Transaction is closed");
    };
    const tx: PgliteTransaction = {
      query: async <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        open();
        return (await this.call({ ...queryRequest(text, params, options), tx: id })) as Results<R>;
      },
      exec: async (text: string) => {
        open();
        return (await this.call({ op: "exec", text, tx: id })) as Results[];
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      closed = true;
      // A rollback that fails (the worker died) says less than why it was rolled back.
      await this.call({ op: "end", tx: id, commit: false }).catch(() => undefined);
      throw error;
    }
    closed = true;
    await this.call({ op: "end", tx: id, commit: true });
    return result;
  }

  /** Hears `NOTIFY channel`; answers the function that stops it. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const id = (await this.call({ op: "listen", channel })) as number;
    this.notified.set(id, callback);
    return async () => {
      if (!this.notified.delete(id) || this.closed) return;
      await this.call({ op: "unlisten", listener: id });
    };
  }

  /** Closes the database (after the calls already sent) and ends the worker. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private closing: Promise<void> | undefined;

  private async closeOnce(): Promise<void> {
    if (this.ended) return;
    // A worker that dies instead of answering has closed it too (its exit ends the wait).
    const closed = this.call({ op: "close" }).catch((error) => {
      if (!this.ended) throw error;
    });
    try {
      await Promise.race([closed, this.exited]);
    } finally {
      this.end("the embedded database is closed");
      await this.worker.terminate();
    }
  }

  private call(request: DistributiveOmit<Request, "id">): Promise<unknown> {
    if (this.ended) return Promise.reject(new Error(this.ended));
    const id = this.nextId++;
    const site = {};
    Error.captureStackTrace(site, this.call);
    return new Promise((resolve, reject) => {
      // A value that cannot cross (a function among the parameters) fails here, not the worker.
      this.worker.postMessage({ ...request, id });
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject, site });
    });
  }

  private onReply(reply: Reply): void {
    if ("notification" in reply) {
      this.notified.get(reply.notification)?.(reply.payload);
      return;
    }
    if (!("id" in reply)) return;
    const call = this.pending.get(reply.id);
    if (!call) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if ("error" in reply) call.reject(rebuild(reply.error, call.site));
    else call.resolve(reply.value);
  }

  /** From now on every call fails with `why`, the ones waiting too. */
  private end(why: string): void {
    this.ended ??= why;
    this.notified.clear();
    const waiting = [...this.pending.values()];
    this.pending.clear();
    this.worker.unref();
    for (const call of waiting) call.reject(rebuild({ name: "Error", message: why }, call.site));
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const queryRequest = (text: string, params: unknown[] | undefined, options?: QueryOptions) => ({
  op: "query" as const,
  text,
  params,
  ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
  ...(options?.parsers ? { textTypes: textTypes(options.parsers) } : {}),
});
