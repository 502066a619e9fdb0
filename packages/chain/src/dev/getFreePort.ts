import { createServer } from "node:net";

/**
 * Ports are drawn below Linux's ephemeral range (32768 and up): the kernel hands those to
 * outgoing connections and `listen(0)`, so a port checked free there can be taken by some
 * client socket before the process it is meant for binds it. Below it, only another caller
 * of this function could pick it, and ports handed out here are never handed out twice.
 */
const LOW = 15_000;
const HIGH = 32_000;
const handedOut = new Set<number>();

const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/**
 * Test workers running side by side (vitest's VITEST_POOL_ID, 1 and up) draw from ranges of
 * their own, so two never pick the same port in the moment before its process binds it. A
 * second vitest run beside the first (`npm test` runs the reliability pass beside the
 * integration pass) shifts its workers' ranges by TEST_PORT_WORKER_OFFSET.
 */
const range = (): [number, number] => {
  const worker =
    Number(process.env.VITEST_POOL_ID) + Number(process.env.TEST_PORT_WORKER_OFFSET ?? 0);
  if (!Number.isInteger(worker) || worker < 1) return [LOW, HIGH];
  const size = 2_000;
  const low = LOW + (((worker - 1) * size) % (HIGH - LOW - size));
  return [low, low + size];
};

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export const getFreePort = async (): Promise<number> => {
  const [low, high] = range();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free TCP port found between ${low} and ${high}`);
};
