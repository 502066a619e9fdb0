import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { encodeCreateTokenArgs, signCreateTokenArgs } from "@bundler/contracts";
import { type Address, createPublicClient, erc20Abi, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DeployLocalChainReturnType, deployLocalChain } from "../dev/deployLocalChain.ts";
import { devPrivateKey } from "../dev/devAccounts.ts";
import { startDevBuilder } from "../dev/devBuilder.ts";
import { getFreePort } from "../dev/getFreePort.ts";
import { type StartAnvilReturnType, startAnvil } from "../dev/startAnvil.ts";
import { BundleTimeoutError } from "../errors.ts";
import { createFourMemeClient } from "../fourmeme/createFourMemeClient.ts";
import { createFourMemeLaunchArgs } from "../fourmeme/createFourMemeLaunchArgs.ts";
import {
  type FakeFourMemeServer,
  startFakeFourMemeServer,
} from "../fourmeme/fakeFourMemeServer.ts";
import type { BuilderEndpoint } from "../profiles.ts";
import { launchToken } from "./launchToken.ts";

const TIP: Address = "0x000000000000000000000000000000000000bEEF";
const signer = privateKeyToAccount(generatePrivateKey());
let anvil: StartAnvilReturnType;
let contracts: DeployLocalChainReturnType;
let fourMeme: FakeFourMemeServer;
let devBuilder: BuilderEndpoint;
const closers: Array<() => Promise<void>> = [];

const setBalance = (address: Address, wei: bigint) =>
  fetch(anvil.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "anvil_setBalance",
      params: [address, `0x${wei.toString(16)}`],
    }),
  });

beforeAll(async () => {
  anvil = await startAnvil({
    port: await getFreePort(),
    chainId: 31337,
    blockTime: 0.2,
    stateFile: null,
  });
  contracts = await deployLocalChain({
    rpcUrl: anvil.rpcUrl,
    deployerKey: devPrivateKey(0),
    launchSigner: signer.address,
  });
  // The fake API signs with our launch signer: the bytes four.meme's API hands out on mainnet.
  let requestId = 1000n;
  fourMeme = await startFakeFourMemeServer({
    signCreate: async ({ creator, body }) => {
      const createArg = encodeCreateTokenArgs({
        name: body.name,
        symbol: body.shortName,
        launchTime: 0n,
        requestId: requestId++,
        preSale: parseEther(String(body.preSale)),
        creator,
      });
      const signature = await signCreateTokenArgs({
        signer,
        chainId: 31337,
        launchpad: contracts.launchpad,
        args: createArg,
      });
      return { createArg, signature };
    },
  });
  const dev = await startDevBuilder({
    rpcUrl: anvil.rpcUrl,
    tipAddress: TIP,
    minTip: parseEther("0.0005"),
    maxTxs: 50,
    blockTime: 0.2,
  });
  devBuilder = { name: "dev", url: dev.url, tipAddress: TIP, maxTxs: 50 };
  closers.push(dev.close, fourMeme.close);
});
afterAll(async () => {
  for (const close of closers) await close();
  await anvil.stop();
});

const accounts = async (count: number) => {
  const list = Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()));
  for (const account of list) await setBalance(account.address, parseEther("2"));
  return list;
};

const launch = async (
  builders: BuilderEndpoint[],
  onStep?: (message: string) => void,
  blocksAhead?: bigint,
) => {
  const [creator, tipPayer, ...wallets] = await accounts(5);
  if (!creator || !tipPayer) throw new Error("no accounts");
  const { createArg, signature } = await createFourMemeLaunchArgs(
    createFourMemeClient({ baseUrl: fourMeme.url }),
    {
      account: creator,
      token: { name: "Moon Cat", shortName: "MCAT", desc: "A cat.", label: "Meme", preSale: "0.1" },
      image: {
        bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
        mimeType: "image/png",
        fileName: "logo.png",
      },
    },
  );
  const report = await launchToken({
    rpcUrl: anvil.rpcUrl,
    chainId: 31337,
    launchpad: contracts.launchpad,
    helper: contracts.helper,
    builders,
    creator,
    createArg,
    signature,
    onStep,
    blocksAhead,
    preSale: parseEther("0.1"),
    tipPayer,
    tip: parseEther("0.001"),
    buyers: wallets.map((account) => ({ account, funds: parseEther("0.05") })),
  });
  return { report, creator };
};

describe("a launch with four.meme's create arguments", () => {
  it("creates the token with the API's bytes and lands every buy with it", async () => {
    const { report, creator } = await launch([devBuilder]);
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    expect(report.bundles).toMatchObject([{ status: "included", builder: "dev" }]);
    const symbol = await client.readContract({
      address: report.token,
      abi: erc20Abi,
      functionName: "symbol",
    });
    expect(symbol).toBe("MCAT");
    const held = await client.readContract({
      address: report.token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [creator.address],
    });
    expect(held).toBe(report.quoted[0]?.amount);
  });

  it("lands through the builder that accepts when another refuses, and says which", async () => {
    const other = {
      ...(await fakeBuilder({
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32000, message: "bundle price too low" },
      })),
      name: "picky",
    };
    const steps: string[] = [];
    const { report } = await launch([other, devBuilder], (message) => steps.push(message));
    expect(report.bundles).toMatchObject([{ status: "included", builder: "dev" }]);
    expect(steps).toContain("ERROR builder picky refused bundle 1: bundle price too low");
  });

  it("gives up after maxBlockNumber when a builder takes the bundle but never includes it", async () => {
    const blackHole = await fakeBuilder({ jsonrpc: "2.0", id: 1, result: "0x01" });
    const launching = launch([{ ...blackHole, name: "black-hole" }], undefined, 2n);
    await expect(launching).rejects.toThrow(BundleTimeoutError);
    await expect(launching).rejects.toThrow(
      /bundle not included by block \d+ \(last block checked: \d+\)/,
    );
  });
});

/** A builder endpoint that answers every request with `answer`. */
const fakeBuilder = async (answer: object): Promise<BuilderEndpoint> => {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return {
    name: "fake",
    url: `http://127.0.0.1:${port}`,
    tipAddress: "0x000000000000000000000000000000000000cafE",
    maxTxs: 50,
  };
};
