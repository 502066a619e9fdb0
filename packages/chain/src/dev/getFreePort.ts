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

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export const getFreePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free TCP port found between ${LOW} and ${HIGH}`);
};
