import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFourMemeClient } from "./createFourMemeClient.ts";
import { FourMemeAuthExpiredError, FourMemeImageRefusedError } from "./errors.ts";
import { type FakeFourMemeServer, startFakeFourMemeServer } from "./fakeFourMemeServer.ts";
import { deployer, pngImage } from "./fourMemeTestFixtures.ts";
import { loginFourMeme } from "./loginFourMeme.ts";
import type { FourMemeClient } from "./types.ts";
import { uploadTokenImage } from "./uploadTokenImage.ts";

describe("uploadTokenImage", () => {
  let server: FakeFourMemeServer;
  let client: FourMemeClient;
  const count = (path: string) => server.requests.filter((request) => request.path === path).length;

  beforeEach(async () => {
    server = await startFakeFourMemeServer({ maxImageBytes: 1024 });
    client = createFourMemeClient({ baseUrl: server.url });
  });
  afterEach(() => server.close());

  test("sends the image as multipart field file with the meme-web-access header", async () => {
    const accessToken = await loginFourMeme(client, { account: deployer });

    await uploadTokenImage(client, { account: deployer, image: pngImage });

    const upload = server.requests.find((request) => request.path === "/private/token/upload");
    expect(upload?.accessToken).toBe(accessToken);
    expect(upload?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.body).toEqual({
      file: { fileName: "logo.png", type: "image/png", size: pngImage.bytes.length },
    });
  });

  test("uses a bare access token as given", async () => {
    const accessToken = await loginFourMeme(client, { account: deployer });

    const imgUrl = await uploadTokenImage(client, { accessToken, image: pngImage });

    expect(imgUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/images\//);
  });

  test("refuses a file that is not an image, with four.meme's message", async () => {
    const text = {
      bytes: new TextEncoder().encode("hello"),
      mimeType: "text/plain",
      fileName: "a.txt",
    };

    const upload = uploadTokenImage(client, { account: deployer, image: text });

    await expect(upload).rejects.toBeInstanceOf(FourMemeImageRefusedError);
    await expect(upload).rejects.toMatchObject({
      msg: "Only jpeg, png, gif, bmp or webp images are accepted",
    });
  });

  test("refuses an image over the size limit, with four.meme's message", async () => {
    const large = { ...pngImage, bytes: new Uint8Array(2048).fill(1, 8) };
    large.bytes.set(pngImage.bytes.subarray(0, 8));

    const upload = uploadTokenImage(client, { account: deployer, image: large });

    await expect(upload).rejects.toBeInstanceOf(FourMemeImageRefusedError);
    await expect(upload).rejects.toMatchObject({ msg: "Image is larger than 1024 bytes" });
  });

  test("logs in again once when the token has expired, and the upload succeeds", async () => {
    await loginFourMeme(client, { account: deployer });
    server.expireTokens();

    const imgUrl = await uploadTokenImage(client, { account: deployer, image: pngImage });

    expect(imgUrl).toContain("/images/");
    expect(count("/private/user/login/dex")).toBe(2);
    expect(count("/private/token/upload")).toBe(2);
  });

  test("surfaces FourMemeAuthExpiredError when the fresh token has expired too", async () => {
    server.expireTokens({ includeFuture: true });

    const upload = uploadTokenImage(client, { account: deployer, image: pngImage });

    await expect(upload).rejects.toBeInstanceOf(FourMemeAuthExpiredError);
    expect(count("/private/user/login/dex")).toBe(2);
    expect(count("/private/token/upload")).toBe(2);
  });

  test("treats an answer whose message says the login expired as an expiry", async () => {
    server.intercept("POST /private/token/upload", {
      body: { code: 10_401, msg: "Login expired, please log in again", data: null },
    });

    const upload = uploadTokenImage(client, { account: deployer, image: pngImage });

    await expect(upload).rejects.toBeInstanceOf(FourMemeAuthExpiredError);
    expect(count("/private/user/login/dex")).toBe(2);
  });
});
