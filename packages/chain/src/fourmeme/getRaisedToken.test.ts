import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFourMemeClient } from "./createFourMemeClient.ts";
import { FourMemeHttpError, FourMemeResponseError, FourMemeTimeoutError } from "./errors.ts";
import { type FakeFourMemeServer, startFakeFourMemeServer } from "./fakeFourMemeServer.ts";
import { getRaisedToken } from "./getRaisedToken.ts";

describe("getRaisedToken", () => {
  let server: FakeFourMemeServer;

  beforeEach(async () => {
    server = await startFakeFourMemeServer();
  });
  afterEach(() => server.close());

  test("picks the BNB entry of the public config, keeping every field", async () => {
    const client = createFourMemeClient({ baseUrl: server.url });

    const raisedToken = await getRaisedToken(client);

    expect(raisedToken).toMatchObject({ symbol: "BNB", totalBAmount: "24", b0Amount: "8" });
  });

  test("fails with FourMemeTimeoutError when the server answers later than the timeout", async () => {
    server.intercept("GET /public/config", { delayMs: 2_000 });
    const client = createFourMemeClient({ baseUrl: server.url, timeout: 100 });

    await expect(getRaisedToken(client)).rejects.toBeInstanceOf(FourMemeTimeoutError);
  });

  test("fails with FourMemeResponseError when data is not a list", async () => {
    server.intercept("GET /public/config", { body: { code: 0, data: { symbol: "BNB" } } });
    const client = createFourMemeClient({ baseUrl: server.url });

    await expect(getRaisedToken(client)).rejects.toBeInstanceOf(FourMemeResponseError);
  });

  test("fails with FourMemeResponseError when the answer is not JSON", async () => {
    server.intercept("GET /public/config", { body: "<html>maintenance</html>" });
    const client = createFourMemeClient({ baseUrl: server.url });

    await expect(getRaisedToken(client)).rejects.toBeInstanceOf(FourMemeResponseError);
  });

  test("fails with FourMemeHttpError carrying msg on a non-zero code", async () => {
    server.intercept("GET /public/config", { body: { code: 500, msg: "busy", data: null } });
    const client = createFourMemeClient({ baseUrl: server.url });

    await expect(getRaisedToken(client)).rejects.toMatchObject({
      name: "FourMemeHttpError",
      msg: "busy",
      code: "500",
    });
  });

  test("fails with FourMemeHttpError without a status when nothing listens", async () => {
    const client = createFourMemeClient({ baseUrl: server.url });
    await server.close();

    const result = getRaisedToken(client);

    await expect(result).rejects.toBeInstanceOf(FourMemeHttpError);
    await expect(result).rejects.toMatchObject({ status: null });
  });
});
