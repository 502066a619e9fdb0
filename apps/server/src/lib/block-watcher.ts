import { rpcTransport } from "@bundler/chain";
import { createPublicClient } from "viem";

export interface BlockWatcher {
  current(): number | null;
  stop(): void;
}

/** Follows the chain head and reports every new block number once. */
export const watchBlocks = (
  rpcUrl: string,
  onBlock: (blockNumber: number) => void,
): BlockWatcher => {
  let latest: number | null = null;
  const client = createPublicClient({ transport: rpcTransport(rpcUrl, { retryCount: 0 }) });
  const unwatch = client.watchBlockNumber({
    emitOnBegin: true,
    emitMissed: false,
    pollingInterval: 250,
    onBlockNumber: (blockNumber) => {
      const value = Number(blockNumber);
      if (latest !== null && value <= latest) return;
      latest = value;
      onBlock(value);
    },
    onError: () => {
      // The node is briefly unreachable (restart, load); the next poll tries again.
    },
  });
  return { current: () => latest, stop: unwatch };
};
