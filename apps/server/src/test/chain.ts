import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DevBuilderFaults, getFreePort, profiles } from "@bundler/chain";
import { parseEther } from "viem";
import { type ChainContext, localChainContext } from "../lib/chain-context.ts";
import { type LocalChain, startLocalChain } from "../lib/local-chain.ts";

export interface TestChain {
  local: LocalChain;
  chain: ChainContext;
  /** One JSON-RPC call straight to anvil (anvil_setBalance, anvil_setCode, ...). */
  rpc(method: string, params: unknown[]): Promise<Response>;
  /** Sets the dev builder's faults (`{}` clears them): late answers, refused senders, ... */
  faults(value: DevBuilderFaults): Promise<void>;
  stop(): Promise<void>;
}

/** The local profile's chain (anvil, our contracts, the dev builder) in a temporary data dir. */
export const startTestChain = async (masterKey: Buffer): Promise<TestChain> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lb-chain-"));
  const local = await startLocalChain({
    dataDir,
    anvilPort: await getFreePort(),
    blockTime: 1,
    chainId: profiles.local.chainId,
    masterKey,
    databaseExisted: false,
    graduationFunds: parseEther("24"),
    builderMaxTxs: 50,
    builderMinTip: parseEther("0.0005"),
  });
  return {
    local,
    chain: localChainContext(profiles.local, local, 50),
    rpc: (method, params) =>
      fetch(local.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      }),
    faults: async (value) => {
      await fetch(local.builderUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "dev_setFaults", params: [value] }),
      });
    },
    stop: async () => {
      await local.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
