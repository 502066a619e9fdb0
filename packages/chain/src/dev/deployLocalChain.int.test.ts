import {
  LaunchpadHelperArtifact,
  LaunchpadManagerArtifact,
  MULTICALL3_ADDRESS,
  Multicall3Artifact,
  UniswapV2PairArtifact,
  UniswapV2Router02Artifact,
} from "@bundler/contracts";
import { createPublicClient, http, keccak256, parseAbi, parseEther, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DeployLocalChainReturnType,
  deployLocalChain,
  routerBytecodeFor,
} from "./deployLocalChain.ts";
import { getFreePort } from "./getFreePort.ts";
import { type StartAnvilReturnType, startAnvil } from "./startAnvil.ts";

const deployer = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);
const launchSigner = privateKeyToAccount(generatePrivateKey());
const routerAbi = parseAbi([
  "function factory() view returns (address)",
  "function WETH() view returns (address)",
]);

let anvil: StartAnvilReturnType;
let addresses: DeployLocalChainReturnType;
let client: ReturnType<typeof createPublicClient>;

beforeAll(async () => {
  // The local profile's real rhythm: a block a second, no automine.
  anvil = await startAnvil({
    port: await getFreePort(),
    chainId: 31337,
    blockTime: 1,
    stateFile: null,
  });
  client = createPublicClient({ transport: http(anvil.rpcUrl) });
  addresses = await deployLocalChain({
    rpcUrl: anvil.rpcUrl,
    deployerKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    launchSigner: launchSigner.address,
    graduationFunds: parseEther("18"),
  });
});
afterAll(async () => {
  await anvil?.stop();
});

describe("deployLocalChain", () => {
  it("deploys every contract, wired to each other", async () => {
    for (const address of Object.values(addresses)) {
      expect((await client.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    }
    const read = <const F extends "factory" | "WETH">(functionName: F) =>
      client.readContract({ address: addresses.router, abi: routerAbi, functionName });
    expect(await read("factory")).toBe(addresses.factory);
    expect(await read("WETH")).toBe(addresses.weth);
    const manager = { address: addresses.launchpad, abi: LaunchpadManagerArtifact.abi } as const;
    expect(await client.readContract({ ...manager, functionName: "router" })).toBe(
      addresses.router,
    );
    expect(await client.readContract({ ...manager, functionName: "launchSigner" })).toBe(
      launchSigner.address,
    );
    expect(await client.readContract({ ...manager, functionName: "owner" })).toBe(deployer.address);
    expect(await client.readContract({ ...manager, functionName: "graduationFunds" })).toBe(
      parseEther("18"),
    );
    expect(
      await client.readContract({
        address: addresses.helper,
        abi: LaunchpadHelperArtifact.abi,
        functionName: "TOKEN_MANAGER_2",
      }),
    ).toBe(addresses.launchpad);
  });

  it("puts Multicall3 at its canonical address, where viem's multicall works", async () => {
    expect(addresses.multicall3).toBe(MULTICALL3_ADDRESS);
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const multicall = { address: MULTICALL3_ADDRESS, abi: Multicall3Artifact.abi } as const;
    const results = await client.multicall({
      multicallAddress: MULTICALL3_ADDRESS,
      contracts: [
        { ...multicall, functionName: "getEthBalance", args: [deployer.address] },
        { ...multicall, functionName: "getEthBalance", args: [stranger] },
        { ...multicall, functionName: "getBlockNumber" },
        {
          address: addresses.helper,
          abi: LaunchpadHelperArtifact.abi,
          functionName: "tryBuy",
          args: [zeroAddress, 0n, 1n],
        },
      ],
    });
    expect(results[0]).toMatchObject({ status: "success" });
    expect(results[0]?.result).toBeGreaterThan(parseEther("1000"));
    expect(results[1]).toEqual({ status: "success", result: 0n });
    expect(results[2]?.result).toBeGreaterThan(0n);
    expect(results[3]?.status).toBe("failure");
  });
});

describe("routerBytecodeFor", () => {
  it("keeps the npm router as is, since its baked hash is the npm pair's init code hash", () => {
    expect(routerBytecodeFor(keccak256(UniswapV2PairArtifact.bytecode))).toBe(
      UniswapV2Router02Artifact.bytecode,
    );
  });

  it("rewrites the baked hash when the pair's creation code differs", () => {
    const other = keccak256("0x1234");
    const patched = routerBytecodeFor(other);
    expect(patched).toContain(other.slice(2));
    expect(patched).not.toContain(keccak256(UniswapV2PairArtifact.bytecode).slice(2));
    expect(patched.length).toBe(UniswapV2Router02Artifact.bytecode.length);
  });
});
