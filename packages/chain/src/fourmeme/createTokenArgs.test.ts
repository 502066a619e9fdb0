import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFourMemeClient } from "./createFourMemeClient.ts";
import { createTokenArgs } from "./createTokenArgs.ts";
import { FourMemeHttpError, FourMemeResponseError } from "./errors.ts";
import { type FakeFourMemeServer, startFakeFourMemeServer } from "./fakeFourMemeServer.ts";
import { deployer, pngImage, tokenDraft } from "./fourMemeTestFixtures.ts";
import { getRaisedToken } from "./getRaisedToken.ts";
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

  test("fails with FourMemeResponseError when createArg is not hex", async () => {
    server.intercept("POST /private/token/create", {
      body: { code: 0, msg: "success", data: { createArg: "not hex", signature: "0x1b" } },
    });

    await expect(create()).rejects.toBeInstanceOf(FourMemeResponseError);
  });
});
