import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFourMemeClient } from "./createFourMemeClient.ts";
import { createTokenArgs } from "./createTokenArgs.ts";
import { FourMemeHttpError, FourMemeResponseError } from "./errors.ts";
import { type FakeFourMemeServer, startFakeFourMemeServer } from "./fakeFourMemeServer.ts";
import { deployer, pngImage, tokenDraft } from "./fourMemeTestFixtures.ts";
import { getRaisedToken } from "./getRaisedToken.ts";
import { loginFourMeme } from "./loginFourMeme.ts";
import type { FourMemeClient } from "./types.ts";
import { uploadTokenImage } from "./uploadTokenImage.ts";

describe("createTokenArgs", () => {
  let server: FakeFourMemeServer;
  let client: FourMemeClient;

  beforeEach(async () => {
    server = await startFakeFourMemeServer();
    client = createFourMemeClient({ baseUrl: server.url });
  });
  afterEach(() => server.close());

  const create = async (imgUrl?: string) =>
    createTokenArgs(client, {
      account: deployer,
      token: tokenDraft,
      imgUrl: imgUrl ?? (await uploadTokenImage(client, { account: deployer, image: pngImage })),
      raisedToken: await getRaisedToken(client),
    });

  test("returns hex createArg and signature by default", async () => {
    const { createArg, signature } = await create();

    expect(createArg).toMatch(/^0x[0-9a-f]{64}$/);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
  });

  test("is refused when the image is an external URL", async () => {
    const result = create("https://example.com/logo.png");

    await expect(result).rejects.toBeInstanceOf(FourMemeHttpError);
    await expect(result).rejects.toMatchObject({
      msg: "imgUrl must be an image uploaded to four.meme",
    });
  });

  test("accepts createArg and signature as base64, as four.meme's CLI decodes them (four-meme-ai create-token-api.ts toHex)", async () => {
    const createArg = Buffer.from([0xc0, 0xff, 0xee, 0x01]).toString("base64");
    const signature = Buffer.from("ab".repeat(65), "hex").toString("base64");
    server.intercept("POST /private/token/create", {
      body: { code: 0, msg: "success", data: { createArg, signature } },
    });

    expect(await create()).toEqual({
      createArg: "0xc0ffee01",
      signature: `0x${"ab".repeat(65)}`,
    });
  });

  test("accepts hex with or without 0x (four-meme-ai create-token-api.ts toHex)", async () => {
    server.intercept("POST /private/token/create", {
      body: { code: 0, msg: "success", data: { createArg: "c0ffee", signature: "0xAB12" } },
    });

    expect(await create()).toEqual({ createArg: "0xc0ffee", signature: "0xAB12" });
  });

  test("the fake API refuses a create body the official script would not send (four-meme-ai create-token-api.ts), and a tokenTaxInfo that breaks create-guide §3.4's rules", async () => {
    const accessToken = await loginFourMeme(client, { account: deployer });
    const imgUrl = await uploadTokenImage(client, { account: deployer, image: pngImage });
    const body = {
      name: "Moon Cat",
      shortName: "MCAT",
      desc: "A cat.",
      imgUrl,
      launchTime: 1_760_000_000_000,
      label: "Meme",
      lpTradingFee: 0.0025,
      preSale: "0",
      feePlan: false,
      raisedToken: await getRaisedToken(client),
      dexType: "PANCAKE_SWAP",
      rushMode: false,
      onlyMPC: false,
      clickFun: false,
      funGroup: false,
    };
    const post = (sent: Record<string, unknown>) =>
      fetch(`${server.url}/private/token/create`, {
        method: "POST",
        headers: { "content-type": "application/json", "meme-web-access": accessToken },
        body: JSON.stringify(sent),
      }).then((response) => response.status);

    expect(await post(body)).toBe(200);
    const { dexType: _, ...withoutDex } = body;
    expect(await post(withoutDex)).toBe(400);
    expect(await post({ ...body, webUrl: "" })).toBe(400);
    expect(await post({ ...body, tokenTaxInfo: null })).toBe(400);
    const tax = {
      feeRate: 5,
      burnRate: 20,
      divideRate: 30,
      liquidityRate: 40,
      recipientRate: 10,
      recipientAddress: "0x1234567890123456789012345678901234567890",
      minSharing: 100000,
    };
    expect(await post({ ...body, tokenTaxInfo: tax })).toBe(200);
    expect(await post({ ...body, tokenTaxInfo: { ...tax, feeRate: 4 } })).toBe(400);
    expect(await post({ ...body, tokenTaxInfo: { ...tax, burnRate: 21 } })).toBe(400);
    expect(await post({ ...body, tokenTaxInfo: { ...tax, recipientAddress: "" } })).toBe(400);
    expect(await post({ ...body, tokenTaxInfo: { ...tax, minSharing: 10000 } })).toBe(400);
  });

  test("fails with FourMemeResponseError when createArg is not hex", async () => {
    server.intercept("POST /private/token/create", {
      body: { code: 0, msg: "success", data: { createArg: "not hex", signature: "0x1b" } },
    });

    await expect(create()).rejects.toBeInstanceOf(FourMemeResponseError);
  });
});
