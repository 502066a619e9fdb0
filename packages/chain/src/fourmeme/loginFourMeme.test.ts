import { generatePrivateKey, privateKeyToAccount, toAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFourMemeClient } from "./createFourMemeClient.ts";
import { FourMemeHttpError } from "./errors.ts";
import { type FakeFourMemeServer, startFakeFourMemeServer } from "./fakeFourMemeServer.ts";
import { deployer } from "./fourMemeTestFixtures.ts";
import { loginFourMeme } from "./loginFourMeme.ts";
import type { FourMemeClient } from "./types.ts";

describe("loginFourMeme", () => {
  let server: FakeFourMemeServer;
  let client: FourMemeClient;

  beforeEach(async () => {
    server = await startFakeFourMemeServer();
    client = createFourMemeClient({ baseUrl: server.url });
  });
  afterEach(() => server.close());

  test("returns an access token for a correctly signed nonce and caches it", async () => {
    const accessToken = await loginFourMeme(client, { account: deployer });

    expect(accessToken).toMatch(/^\w{16,}$/);
    expect(client.sessions.get(deployer.address.toLowerCase())).toBe(accessToken);
  });

  test("sends the documented login body with the signer's address", async () => {
    await loginFourMeme(client, { account: deployer });

    expect(server.requests[1]?.body).toMatchObject({
      region: "WEB",
      langType: "EN",
      walletName: "MetaMask",
      verifyInfo: { address: deployer.address, networkCode: "BSC", verifyType: "LOGIN" },
    });
  });

  test("fails with FourMemeHttpError when the signature is not the account's", async () => {
    const impostor = privateKeyToAccount(generatePrivateKey());
    const account = toAccount({
      address: deployer.address,
      signMessage: impostor.signMessage,
      signTransaction: impostor.signTransaction,
      signTypedData: impostor.signTypedData,
    });

    const login = loginFourMeme(client, { account });

    await expect(login).rejects.toBeInstanceOf(FourMemeHttpError);
    await expect(login).rejects.toMatchObject({ msg: "Signature verification failed" });
    expect(client.sessions.size).toBe(0);
  });
});
