import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFourMemeClient } from "./createFourMemeClient.ts";
import { createFourMemeLaunchArgs } from "./createFourMemeLaunchArgs.ts";
import { type FakeFourMemeServer, startFakeFourMemeServer } from "./fakeFourMemeServer.ts";
import { deployer, pngImage, tokenDraft } from "./fourMemeTestFixtures.ts";
import type { FourMemeClient } from "./types.ts";

const signed = { createArg: "0xc0ffee", signature: `0x${"ab".repeat(65)}` } as const;

describe("createFourMemeLaunchArgs", () => {
  let server: FakeFourMemeServer;
  let client: FourMemeClient;

  beforeEach(async () => {
    server = await startFakeFourMemeServer({ signCreate: () => signed });
    client = createFourMemeClient({ baseUrl: server.url });
  });
  afterEach(() => server.close());

  test("returns the createArg and signature four.meme signed, with the hosted image", async () => {
    const result = await createFourMemeLaunchArgs(client, {
      account: deployer,
      token: tokenDraft,
      image: pngImage,
    });

    expect(result).toEqual({ ...signed, imgUrl: expect.stringMatching(/\/images\/\w+\.png$/) });
    const hosted = await fetch(result.imgUrl);
    expect(new Uint8Array(await hosted.arrayBuffer())).toEqual(pngImage.bytes);
  });

  test("walks the documented flow: nonce, login, upload, config, create", async () => {
    await createFourMemeLaunchArgs(client, {
      account: deployer,
      token: tokenDraft,
      image: pngImage,
    });

    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /private/user/nonce/generate",
      "POST /private/user/login/dex",
      "POST /private/token/upload",
      "GET /public/config",
      "POST /private/token/create",
    ]);
  });

  test("sends the token fields and the unmodified BNB raise config to create", async () => {
    const { imgUrl } = await createFourMemeLaunchArgs(client, {
      account: deployer,
      token: tokenDraft,
      image: pngImage,
    });

    const create = server.requests.find((request) => request.path === "/private/token/create");
    expect(create?.body).toMatchObject({
      name: "Moon Cat",
      shortName: "MCAT",
      desc: "A cat that went to the moon.",
      imgUrl,
      launchTime: 1_760_000_000_000,
      label: "Meme",
      lpTradingFee: 0.0025,
      twitterUrl: "https://x.com/mooncat",
      preSale: "0.1",
      feePlan: false,
      raisedToken: { symbol: "BNB", totalBAmount: "24", status: "PUBLISH" },
    });
  });

  test("sends what four.meme's official create script sends: dexType PANCAKE_SWAP, rushMode, onlyMPC, clickFun and funGroup false (four-meme-ai create-token-api.ts)", async () => {
    await createFourMemeLaunchArgs(client, {
      account: deployer,
      token: tokenDraft,
      image: pngImage,
    });

    const create = server.requests.find((request) => request.path === "/private/token/create");
    expect(create?.body).toMatchObject({
      dexType: "PANCAKE_SWAP",
      rushMode: false,
      onlyMPC: false,
      clickFun: false,
      funGroup: false,
      feePlan: false,
    });
  });

  test("leaves out empty social URLs and tokenTaxInfo when none is set (four-meme-ai create-token-api.ts, create-guide §3.1)", async () => {
    await createFourMemeLaunchArgs(client, {
      account: deployer,
      token: { ...tokenDraft, webUrl: "", telegramUrl: "  " },
      image: pngImage,
    });

    const create = server.requests.find((request) => request.path === "/private/token/create");
    const body = create?.body as Record<string, unknown>;
    expect(body.twitterUrl).toBe("https://x.com/mooncat");
    expect(Object.keys(body)).not.toContain("webUrl");
    expect(Object.keys(body)).not.toContain("telegramUrl");
    expect(Object.keys(body)).not.toContain("tokenTaxInfo");
  });

  test("sends tokenTaxInfo as given when it is set (create-guide §3.4)", async () => {
    const tokenTaxInfo = {
      feeRate: 5,
      burnRate: 20,
      divideRate: 30,
      liquidityRate: 40,
      recipientRate: 10,
      recipientAddress: "0x1234567890123456789012345678901234567890",
      minSharing: 100000,
    };
    await createFourMemeLaunchArgs(client, {
      account: deployer,
      token: { ...tokenDraft, tokenTaxInfo },
      image: pngImage,
    });

    const create = server.requests.find((request) => request.path === "/private/token/create");
    expect(create?.body).toMatchObject({ tokenTaxInfo });
  });

  test("reuses the access token for a second launch by the same deployer", async () => {
    await createFourMemeLaunchArgs(client, {
      account: deployer,
      token: tokenDraft,
      image: pngImage,
    });
    await createFourMemeLaunchArgs(client, {
      account: deployer,
      token: tokenDraft,
      image: pngImage,
    });

    const logins = server.requests.filter((request) => request.path === "/private/user/login/dex");
    expect(logins).toHaveLength(1);
  });
});
