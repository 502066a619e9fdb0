import { createPublicClient, http, type PublicClient } from "viem";

/**
 * The anvil a server process started, reached straight (not through the server): a reader,
 * raw JSON-RPC, and the cheat that funds a wallet. `port` is read on every call, since a
 * restarted server may start its chain on a new one.
 */
export const anvilAt = (port: () => number) => {
  const url = () => `http://127.0.0.1:${port()}`;
  const rpc = (method: string, params: unknown[]) =>
    fetch(url(), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
  return {
    url,
    client: (): PublicClient => createPublicClient({ transport: http(url()), cacheTime: 0 }),
    rpc,
    setBalance: (address: string, value: bigint) =>
      rpc("anvil_setBalance", [address, `0x${value.toString(16)}`]),
    /**
     * Resolves once nothing answers on the port any more. A server killed with SIGKILL leaves
     * its anvil to stop by itself, saving its state into the data dir as it goes: remove that
     * directory only after this.
     */
    async stopped(timeoutMs = 30_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const answered = await rpc("eth_chainId", []).then(
          () => true,
          () => false,
        );
        if (!answered) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`anvil on ${url()} still answers after ${timeoutMs} ms`);
    },
  };
};
