import { afterEach, describe, expect, test, vi } from "vitest";
import { createFourMemeClient } from "./createFourMemeClient.ts";
import { FourMemeHttpError } from "./errors.ts";
import { type FakeFourMemeServer, startFakeFourMemeServer } from "./fakeFourMemeServer.ts";
import { getPublicTokenInfo } from "./getPublicTokenInfo.ts";

const address = "0x4444444444444444444444444444444444444444";

describe("getPublicTokenInfo", () => {
  let server: FakeFourMemeServer;
  afterEach(() => server.close());

  test("returns the image, status and trade link of a known token", async () => {
    server = await startFakeFourMemeServer({
      getTokenInfo: (tokenAddress) => ({
        address: tokenAddress,
        name: "Moon Cat",
        shortName: "MCAT",
        image: "https://static.four.meme/market/cat.png",
        status: "TRADE",
        tradeUrl: "https://pancakeswap.finance/swap?outputCurrency=0x4444",
      }),
    });
    const client = createFourMemeClient({ baseUrl: server.url });

    const info = await getPublicTokenInfo(client, { address });

    expect(info).toMatchObject({
      address,
      image: "https://static.four.meme/market/cat.png",
      status: "TRADE",
      tradeUrl: "https://pancakeswap.finance/swap?outputCurrency=0x4444",
    });
  });

  test("returns null on 404 and hands the reason to onError", async () => {
    server = await startFakeFourMemeServer();
    const client = createFourMemeClient({ baseUrl: server.url });
    const onError = vi.fn();

    const info = await getPublicTokenInfo(client, { address, onError });

    expect(info).toBeNull();
    expect(onError).toHaveBeenCalledWith(expect.any(FourMemeHttpError));
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ status: 404 });
  });

  test("asks for the token by its address in the query", async () => {
    server = await startFakeFourMemeServer();
    const client = createFourMemeClient({ baseUrl: server.url });

    await getPublicTokenInfo(client, { address });

    expect(server.requests[0]).toMatchObject({ path: "/private/token/get", query: { address } });
  });
});
