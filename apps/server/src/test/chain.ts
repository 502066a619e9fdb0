import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DevBuilderFaults, devPrivateKey, getFreePort, profiles } from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import { type Address, createPublicClient, createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ChainContext, localChainContext } from "../lib/chain-context.ts";
import { type LocalChain, startLocalChain } from "../lib/local-chain.ts";

export interface TestChain {
  local: LocalChain;
  chain: ChainContext;
  /** One JSON-RPC call straight to anvil (anvil_setBalance, anvil_setCode, ...). */
  rpc(method: string, params: unknown[]): Promise<Response>;
  /** Mines a block now (through the dev builder, after any bundle in flight); answers its number. */
  mine(): Promise<number>;
  /**
   * Seconds between blocks from now on (0: none until `mine`); the chain's own rhythm when
   * not given. Anvil mines only when the builder says so: pause here, never on anvil.
   */
  setBlockTime(seconds?: number): Promise<void>;
  /**
   * Sets a dev builder's faults (`{}` clears them): late answers, refused senders, ... The
   * first builder's unless `which` names the second ("local-slow").
   */
  faults(value: DevBuilderFaults, which?: "local" | "local-slow"): Promise<void>;
  /**
   * The launchpad's owner-only test hook: gives `token` another template (X Mode: 0x10000, a
   * creator type: `type << 10`) or makes it a TokenManager V1 token (`version` 1).
   */
  setTokenKind(token: Address, kind: { template?: bigint; version?: 1n | 2n }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Seconds between a test chain's blocks: a fifth of the real local chain's second, so a test
 * that waits for blocks (a payment confirmed, a dispersal's hops) waits a fifth as long.
 */
export const TEST_BLOCK_TIME = 0.2;

/** The local profile's chain (anvil, our contracts, the dev builder) in a temporary data dir. */
export const startTestChain = async (
  masterKey: Buffer,
  {
    blockTime = TEST_BLOCK_TIME,
    builderMaxTxs = 50,
    slowBuilderMaxTxs = 0,
  }: {
    blockTime?: number;
    /** The dev builder's cap on a bundle's transactions (BSC builders' top tier: 50). */
    builderMaxTxs?: number;
    /** The second builder's cap ("local-slow"); 0 (the default): only one builder runs. */
    slowBuilderMaxTxs?: number;
  } = {},
): Promise<TestChain> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lb-chain-"));
  const local = await startLocalChain({
    dataDir,
    anvilPort: await getFreePort(),
    blockTime,
    chainId: profiles.local.chainId,
    masterKey,
    databaseExisted: false,
    graduationFunds: parseEther("24"),
    builderMaxTxs,
    builderMinTip: parseEther("0.0005"),
    slowBuilderMaxTxs,
  });
  /** One JSON-RPC call to the dev builder (its `dev_` methods); answers the result. */
  const builder = async <T>(
    method: string,
    params: unknown[],
    url = local.builderUrl,
  ): Promise<T> => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await response.json()) as { result: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  return {
    local,
    // Tests mine by hand and count blocks to a bundle's end: its window is 5 blocks, not a time.
    chain: { ...localChainContext(profiles.local, local, builderMaxTxs), fixedWindowBlocks: 5n },
    rpc: (method, params) =>
      fetch(local.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      }),
    mine: () => builder<number>("dev_mine", []),
    setBlockTime: async (seconds = blockTime) => {
      await builder("dev_setBlockTime", [seconds]);
    },
    faults: async (value, which = "local") => {
      const url = which === "local" ? local.builderUrl : local.slowBuilder?.url;
      if (!url)
        throw new Error("no second builder runs: start the test chain with slowBuilderMaxTxs");
      await builder("dev_setFaults", [value], url);
    },
    setTokenKind: async (token, kind) => {
      const owner = createWalletClient({
        account: privateKeyToAccount(devPrivateKey(0)),
        transport: http(local.rpcUrl),
      });
      const hash = await owner.writeContract({
        chain: null,
        address: local.contracts.launchpad,
        abi: LaunchpadManagerArtifact.abi,
        functionName: "setTokenKind",
        args: [token, kind.template ?? 0n, kind.version ?? 2n],
      });
      const client = createPublicClient({ transport: http(local.rpcUrl) });
      await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    },
    stop: async () => {
      await local.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
