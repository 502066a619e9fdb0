// The embedded database's own thread: it owns the one PGlite instance (WebAssembly Postgres) so
// that its queries run here, not on the server's request loop. The main thread's side is
// pglite-proxy.ts; the messages are described there (`Request`, `Reply`). Plain JavaScript
// because Node starts it as it is, from the sources (tests, tsx) and from the bundle alike.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

if (!parentPort) throw new Error("pglite-worker.mjs runs as a worker thread");
const port = parentPort;

/** @type {{ dataDir?: string, loadDataDir?: ArrayBuffer, pgliteWasmModule?: WebAssembly.Module }} */
const options = workerData ?? {};

/** A query error as plain fields: PGlite's (pg-protocol's DatabaseError) carry code, detail... */
const plainError = (error) => {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const plain = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    const type = typeof value;
    if (value === null || type === "string" || type === "number" || type === "boolean")
      plain[key] = value;
    // The parameters came from the main thread, so they cross back.
    else if (key === "params" && Array.isArray(value)) plain.params = value;
  }
  return plain;
};

const answer = (id, value) => port.postMessage({ id, value });
const refuse = (id, error) => port.postMessage({ id, error: plainError(error) });

/**
 * Parsers cannot cross threads: the main side names the types (OIDs) whose values the caller
 * wants as Postgres's text (drizzle's driver does so for dates, timestamps, intervals and
 * their arrays); each list's identity parsers are made once.
 */
const keepText = (value) => value;
const parserSets = new Map();
const parsersFor = (oids) => {
  if (!oids || oids.length === 0) return undefined;
  const key = oids.join(",");
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(oids.map((oid) => [oid, keepText]));
    parserSets.set(key, parsers);
  }
  return parsers;
};

const queryOptions = (request) => {
  const parsers = parsersFor(request.textTypes);
  if (!request.rowMode && !parsers) return undefined;
  return {
    ...(request.rowMode ? { rowMode: request.rowMode } : {}),
    ...(parsers ? { parsers } : {}),
  };
};

/**
 * Open transactions by the id of the request that began them. Each runs inside PGlite's own
 * `transaction`, whose mutex keeps every other query and transaction waiting until it ends:
 * a query from outside it never joins it.
 */
const transactions = new Map();
/** Listeners by the id of the request that began them: their unlisten functions. */
const listeners = new Map();

const ENDED_BY_ROLLBACK = Symbol("rollback");

const begin = (db, id) => {
  let began = false;
  /** @type {{ client: any, commit: () => void, rollback: () => void, ended: Promise<unknown> }} */
  const open = {};
  open.ended = db.transaction(
    (client) =>
      new Promise((commit, rollback) => {
        open.client = client;
        open.commit = commit;
        open.rollback = () => rollback(ENDED_BY_ROLLBACK);
        transactions.set(id, open);
        began = true;
        answer(id, id);
      }),
  );
  // BEGIN failing answers the request that asked for it; the end's outcome answers `end`.
  open.ended.catch((error) => {
    if (!began) refuse(id, error);
  });
};

const end = (id, request) => {
  const open = transactions.get(request.tx);
  if (!open) return refuse(id, new Error("the transaction has already ended"));
  transactions.delete(request.tx);
  open.ended.then(
    () => answer(id, null),
    (error) => (error === ENDED_BY_ROLLBACK ? answer(id, null) : refuse(id, error)),
  );
  if (request.commit) open.commit();
  else open.rollback();
};

/** Where a request's statement runs: its transaction's client, or the database itself. */
const clientOf = (db, request) => {
  if (request.tx === undefined) return db;
  const open = transactions.get(request.tx);
  if (!open) throw new Error("the transaction has already ended");
  return open.client;
};

const handle = async (db, request) => {
  const { id } = request;
  try {
    switch (request.op) {
      case "query": {
        const result = await clientOf(db, request).query(
          request.text,
          request.params,
          queryOptions(request),
        );
        return answer(id, result);
      }
      case "exec":
        return answer(id, await clientOf(db, request).exec(request.text));
      case "begin":
        return begin(db, id);
      case "end":
        return end(id, request);
      case "listen": {
        const unlisten = await db.listen(request.channel, (payload) =>
          port.postMessage({ notification: id, payload }),
        );
        listeners.set(id, unlisten);
        return answer(id, id);
      }
      case "unlisten": {
        const unlisten = listeners.get(request.listener);
        listeners.delete(request.listener);
        if (unlisten && !db.closed) await unlisten();
        return answer(id, null);
      }
      case "close":
        if (!db.closed) await db.close();
        answer(id, null);
        // Nothing is left to do here: let the thread end.
        port.close();
        return;
      default:
        throw new Error(`unknown request ${request.op}`);
    }
  } catch (error) {
    refuse(id, error);
  }
};

try {
  const db = await PGlite.create(options.dataDir, {
    ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {}),
    // Compiled once per process: each worker would otherwise compile its own (~9 MB).
    ...(options.pgliteWasmModule ? { pgliteWasmModule: options.pgliteWasmModule } : {}),
  });
  // Requests start at once, in the order they came: PGlite's mutexes order them from there.
  port.on("message", (request) => {
    handle(db, request);
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: plainError(error) });
}
