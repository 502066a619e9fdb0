import {
  createFourMemeClient,
  devPrivateKey,
  type FakeFourMemeServer,
  startFakeFourMemeServer,
} from "@bundler/chain";
import {
  encodeCreateTokenArgs,
  LaunchpadManagerArtifact,
  signCreateTokenArgs,
} from "@bundler/contracts";
import type { Draft, LaunchPlan } from "@bundler/shared";
import { type Address, createWalletClient, erc20Abi, http, parseEther, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChainContext } from "../../lib/chain-context.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller, draftInput, payerOn } from "../../test/drafts-api.ts";
import { freshWatcher } from "../../test/payment-watcher.ts";

/**
 * The mainnet launch path (four.meme's API for createToken's signed arguments) run against
 * the local chain: a fake of four.meme's API signs with the local launchpad's signer, and the
 * server's launch job takes the same code path it takes on BSC.
 */
let testChain: TestChain;
let fourMeme: FakeFourMemeServer;
let chain: ChainContext;
let app: TestApp;
let key: string;
const masterKey = Buffer.alloc(32, 5);
const treasury = privateKeyToAccount(generatePrivateKey()).address;
/** The launchpad's creation fee, set on chain and listed by the API's config: not the default. */
const CREATION_FEE = "0.02";
/** When set, the fake API answers createArg and signature in base64. */
let base64Answers = false;

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  const { local } = testChain;
  const owner = createWalletClient({
    account: privateKeyToAccount(devPrivateKey(0)),
    transport: http(local.rpcUrl),
  });
  const hash = await owner.writeContract({
    chain: null,
    address: local.contracts.launchpad,
    abi: LaunchpadManagerArtifact.abi,
    functionName: "setLaunchFee",
    args: [parseEther(CREATION_FEE)],
  });
  await testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
  let requestId = 1n;
  fourMeme = await startFakeFourMemeServer({
    raisedTokens: [
      { symbol: "BNB", deployCost: CREATION_FEE, totalBAmount: "24", status: "PUBLISH" },
    ],
    signCreate: async ({ creator, body }) => {
      const createArg = encodeCreateTokenArgs({
        name: body.name,
        symbol: body.shortName,
        launchTime: 0n,
        requestId: requestId++,
        preSale: parseEther(body.preSale),
        creator,
      });
      const signature = await signCreateTokenArgs({
        signer: privateKeyToAccount(local.launchSignerKey),
        chainId: testChain.chain.chainId,
        launchpad: local.contracts.launchpad,
        args: createArg,
      });
      // four.meme's API may answer in base64 (its CLI's toHex reads both): so does this fake,
      // for the requests a test asks it to.
      if (!base64Answers) return { createArg, signature };
      const base64 = (hex: string) => Buffer.from(hex.slice(2), "hex").toString("base64");
      return { createArg: base64(createArg), signature: base64(signature) } as never;
    },
  });
  // No launch signer: the only way to a signed create is four.meme's API, as on mainnet.
  chain = {
    ...testChain.chain,
    launchSignerKey: null,
    fourMeme: createFourMemeClient({ baseUrl: fourMeme.url, timeout: 5000 }),
  };
  app = await createTestApp({
    chain,
    masterKey,
    launchFeeBnb: "0.01",
    treasuryAddress: treasury,
    bodyLimitBytes: 2 * 1024 * 1024,
  });
  key = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
  await fourMeme?.close();
  await testChain?.stop();
});

const call = apiCaller(
  () => app,
  () => key,
);

/** A paid draft whose wallets hold exactly what its plan asks. */
const fundedPaidDraft = async (image?: string) => {
  const input = draftInput(2);
  if (image !== undefined) input.tokenInfo.image = image;
  const { body } = await call("POST", "/api/draft/create", input);
  const id = body.draftId as string;
  const address = (await call("POST", `/api/draft/${id}/payment`)).body.paymentAddress as Address;
  await (await payerOn(testChain)).pay(address, parseEther("0.01"));
  await freshWatcher(app, chain, treasury).tick();
  const plan = (await call("GET", `/api/draft/${id}/summary`)).body.plan as LaunchPlan;
  for (const { address: wallet, required } of plan.funding)
    await testChain.rpc("anvil_setBalance", [wallet, `0x${parseEther(required).toString(16)}`]);
  return { id, input, plan };
};

const execute = async (id: string): Promise<string[]> => {
  const emitted: string[] = [];
  const spy = vi
    .spyOn(app.realtime, "emitToUser")
    .mockImplementation(async (_user, _kind, { message }) => {
      emitted.push(message);
    });
  try {
    expect((await call("POST", `/api/draft/${id}/execute`)).status).toBe(200);
    await app.launches.idle();
  } finally {
    spy.mockRestore();
  }
  return emitted;
};

const draftOf = async (id: string) => (await call("GET", `/api/draft/${id}`)).body.draft as Draft;

describe("launching through four.meme's API", () => {
  it("logs in, uploads the logo, takes the signed arguments and fee from the API, and launches", async () => {
    const { id, input, plan } = await fundedPaidDraft();
    expect(plan.costs.creationFee).toBe(CREATION_FEE);
    const deployer = input.deployerWallet.address;
    const emitted = await execute(id);
    const lines = emitted.join("\n");
    expect(emitted).toContain(`PASSED logged in to four.meme as ${deployer}`);
    expect(lines).toMatch(
      /PASSED logo uploaded to four\.meme: http:\/\/127\.0\.0\.1:\d+\/images\/\w+\.png/,
    );
    expect(emitted).toContain(
      `PASSED four.meme raise config: BNB, listed creation fee ${Number(CREATION_FEE).toFixed(4)} BNB`,
    );
    expect(lines).not.toMatch(/WARNING/);
    expect(emitted).toContain("PASSED createToken arguments received from four.meme");
    expect(lines).not.toMatch(/launch signer/);

    const draft = await draftOf(id);
    expect(draft.status, lines).toBe("executed");
    const token = draft.launch?.tokenAddress as Address;
    const symbol = await chain.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "symbol",
    });
    expect(symbol).toBe("BMOON");
    const block = await chain.client.getBlock({
      blockNumber: BigInt(draft.launch?.blockNumber ?? 0),
      includeTransactions: true,
    });
    const create = block.transactions.find(
      (tx) => tx.from.toLowerCase() === deployer.toLowerCase(),
    );
    const receipt = await chain.client.getTransactionReceipt({ hash: create?.hash ?? "0x" });
    const [created] = parseEventLogs({
      abi: LaunchpadManagerArtifact.abi,
      eventName: "TokenCreate",
      logs: receipt.logs,
    });
    expect(created?.args.launchFee).toBe(parseEther(CREATION_FEE));
    // The create's value, read from the chain: _launchFee() + preSale + preSale × rate / 10000.
    const read = (functionName: "_launchFee" | "_tradingFeeRate") =>
      chain.client.readContract({
        address: chain.launchpad as Address,
        abi: LaunchpadManagerArtifact.abi,
        functionName,
      });
    const preSale = parseEther(input.tokenInfo.preSale);
    expect(create?.value).toBe(
      (await read("_launchFee")) + preSale + (preSale * (await read("_tradingFeeRate"))) / 10_000n,
    );

    const upload = fourMeme.requests.find((r) => r.path === "/private/token/upload");
    expect(JSON.stringify(upload?.body)).toMatch(/image\/png/);
    const createRequest = fourMeme.requests.find((r) => r.path === "/private/token/create");
    expect(createRequest?.body).toMatchObject({
      name: "Bundle Moon",
      shortName: "BMOON",
      desc: "launched by the test",
      label: "Meme",
      preSale: "0.05",
      raisedToken: { symbol: "BNB" },
    });
  });

  it("warns in the terminal when four.meme's config lists another creation fee than the launchpad's _launchFee(), and sends the launchpad's (create-guide §4 note 1)", async () => {
    const { id, input } = await fundedPaidDraft();
    fourMeme.intercept("GET /public/config", {
      body: {
        code: 0,
        msg: "success",
        data: [{ symbol: "BNB", deployCost: "0.005", totalBAmount: "24", status: "PUBLISH" }],
      },
    });
    let emitted: string[];
    try {
      emitted = await execute(id);
    } finally {
      // An answer with neither status nor body: the normal one again.
      fourMeme.intercept("GET /public/config", {});
    }
    expect(emitted).toContain(
      `WARNING four.meme's config lists a 0.005 BNB creation fee but the launchpad asks ${CREATION_FEE} BNB: the create sends what the launchpad asks`,
    );
    const draft = await draftOf(id);
    expect(draft.status, emitted.join("\n")).toBe("executed");
    const block = await chain.client.getBlock({
      blockNumber: BigInt(draft.launch?.blockNumber ?? 0),
      includeTransactions: true,
    });
    const deployer = input.deployerWallet.address.toLowerCase();
    const create = block.transactions.find((tx) => tx.from.toLowerCase() === deployer);
    const preSale = parseEther(input.tokenInfo.preSale);
    expect(create?.value).toBe(parseEther(CREATION_FEE) + preSale + preSale / 100n);
  });

  it("launches with createArg and signature four.meme answered in base64 (four-meme-ai create-token-api.ts toHex)", async () => {
    const { id } = await fundedPaidDraft();
    base64Answers = true;
    let emitted: string[];
    try {
      emitted = await execute(id);
    } finally {
      base64Answers = false;
    }
    expect(emitted).toContain("PASSED createToken arguments received from four.meme");
    expect((await draftOf(id)).status, emitted.join("\n")).toBe("executed");
  });

  it("says four.meme refused the logo, in words, and keeps the draft paid", async () => {
    // Base64 that decodes to bytes no image format starts with.
    const { id } = await fundedPaidDraft("data:image/png;base64,AAAAAAAA");
    const emitted = await execute(id);
    expect(emitted).toContain(
      "FAILED launch: four.meme refused the logo: Only jpeg, png, gif, bmp or webp images are accepted. Edit the draft, upload another image (PNG, JPEG, GIF or WebP, under 5 MB) and execute again",
    );
    expect((await draftOf(id)).status).toBe("paid");
  });

  it("says four.meme keeps ending the login session, and keeps the draft paid", async () => {
    const { id } = await fundedPaidDraft();
    fourMeme.expireTokens({ includeFuture: true });
    try {
      const emitted = await execute(id);
      expect(emitted.find((m) => m.startsWith("FAILED launch:"))).toMatch(
        /^FAILED launch: four\.meme ended the deployer's login session again right after a new login \(Access token expired, please log in again\); wait a minute and execute again$/,
      );
    } finally {
      fourMeme.expireTokens({ includeFuture: false });
    }
    expect((await draftOf(id)).status).toBe("paid");
  });

  it("says four.meme did not answer in time when its API hangs, and keeps the draft paid", async () => {
    const { id } = await fundedPaidDraft();
    fourMeme.intercept("POST /private/token/create", { delayMs: 6000 });
    const emitted = await execute(id);
    expect(emitted).toContain(
      "FAILED launch: four.meme did not answer within 5 s; it may be busy: execute again in a minute",
    );
    expect((await draftOf(id)).status).toBe("paid");
  });
});
