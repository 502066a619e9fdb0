import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnsupportedTokenError } from "../errors.ts";
import { buyToken } from "./buyToken.ts";
import { getTokenKind } from "./getTokenKind.ts";
import { prepareSells } from "./prepareSells.ts";
import { startTradingTestChain, type TradingTestChain } from "./startTradingTestChain.ts";
import { readTradeRoute } from "./tradeRoute.ts";

let chain: TradingTestChain;
beforeAll(async () => {
  chain = await startTradingTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

const addresses = () => {
  const { launchpad, helper, router, weth } = chain.contracts;
  return { launchpad, helper, router, weth };
};
const X_MODE = 0x10000n;
const X_MODE_WORDS =
  "it is an X Mode token: four.meme sells it only through buys its own API signs, which this app does not make";
const V1_WORDS =
  "it was launched on four.meme's first TokenManager (V1, before 2024-09-05), whose trades this app does not make";

describe("token kinds (tax-guide §2.1, integration-guide §3 and §5, four-meme-ai errors.md)", () => {
  it("reads _tokenInfos(token).template: creator type (template >> 10) & 0x3F and X Mode template & 0x10000 (tax-guide §2.1; four-meme-ai errors.md)", async () => {
    const plain = await chain.createToken();
    const tax = await chain.createToken();
    await chain.setTokenKind(tax, { template: (5n << 10n) | X_MODE });
    const kind = (token: `0x${string}`) => getTokenKind(chain.client, { ...addresses(), token });
    expect(await kind(plain)).toMatchObject({
      version: 2n,
      template: 0n,
      creatorType: 0n,
      xMode: false,
    });
    expect(await kind(tax)).toMatchObject({
      template: (5n << 10n) | X_MODE,
      creatorType: 5n,
      xMode: true,
    });
  });

  it("refuses to price or trade an X Mode token, saying why (four-meme-ai errors.md)", async () => {
    const token = await chain.createToken();
    const holder = await chain.wallet();
    await buyToken(chain.client, {
      ...addresses(),
      account: holder,
      token,
      funds: parseEther("0.05"),
    });
    await chain.setTokenKind(token, { template: X_MODE });
    const route = readTradeRoute(chain.client, { ...addresses(), token });
    await expect(route).rejects.toThrow(UnsupportedTokenError);
    await expect(route).rejects.toThrow(`token ${token} cannot be traded here: ${X_MODE_WORDS}`);
    await expect(
      prepareSells(chain.client, {
        ...addresses(),
        token,
        sellers: [
          { address: holder.address, amount: await chain.tokenBalance(token, holder.address) },
        ],
      }),
    ).rejects.toThrow(X_MODE_WORDS);
  });

  it("refuses to trade a TokenManager V1 token, saying why (integration-guide §3)", async () => {
    const token = await chain.createToken();
    await chain.setTokenKind(token, { version: 1n });
    await expect(readTradeRoute(chain.client, { ...addresses(), token })).rejects.toThrow(
      `token ${token} cannot be traded here: ${V1_WORDS}`,
    );
    expect(await getTokenKind(chain.client, { ...addresses(), token })).toMatchObject({
      version: 1n,
      refusal: V1_WORDS,
    });
  });

  it("reads another creator type without refusing it: a tax token (type 5) still trades (tax-guide §1)", async () => {
    const token = await chain.createToken();
    await chain.setTokenKind(token, { template: 5n << 10n });
    expect(await getTokenKind(chain.client, { ...addresses(), token })).toMatchObject({
      creatorType: 5n,
      refusal: null,
    });
    await expect(readTradeRoute(chain.client, { ...addresses(), token })).resolves.toMatchObject({
      route: "curve",
    });
  });
});
