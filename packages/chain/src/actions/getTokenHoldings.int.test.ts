import { type Address, createPublicClient, http, maxUint256, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCountingProxy } from "../dev/countingProxy.ts";
import { buyToken } from "./buyToken.ts";
import { getTokenHoldings } from "./getTokenHoldings.ts";
import { getTokenInfo } from "./getTokenInfo.ts";
import { getTokenInfos } from "./getTokenInfos.ts";
import { sellToken } from "./sellToken.ts";
import { startTradingTestChain, type TradingTestChain } from "./startTradingTestChain.ts";

let chain: TradingTestChain;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let counted: ReturnType<typeof createPublicClient>;
beforeAll(async () => {
  chain = await startTradingTestChain();
  proxy = await startCountingProxy(chain.rpcUrl);
  counted = createPublicClient({ transport: http(proxy.url), cacheTime: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await chain?.stop();
});

const trading = () => {
  const { launchpad, helper, router, weth } = chain.contracts;
  return { launchpad, helper, router, weth };
};

describe("getTokenHoldings", () => {
  it("reads the token's state, supply, block and every wallet's BNB, tokens and allowances in one RPC request", async () => {
    const { launchpad, helper, router } = trading();
    const token = await chain.createToken();
    const buyer = await chain.wallet();
    await buyToken(chain.client, { ...trading(), account: buyer, token, funds: parseEther("0.1") });
    const bought = await chain.tokenBalance(token, buyer.address);
    await sellToken(chain.client, { ...trading(), account: buyer, token, amount: bought / 2n });
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    proxy.reset();
    const read = await getTokenHoldings(counted, {
      token,
      helper,
      addresses: [buyer.address, stranger],
      spenders: [launchpad, router],
    });
    expect(proxy.seen).toEqual([{ batch: false, methods: ["eth_call"] }]);
    expect(read.info).toEqual(await getTokenInfo(chain.client, { helper, token }));
    expect(read.totalSupply).toBe(parseEther("1000000000"));
    const block = await chain.client.getBlock();
    expect(read.blockNumber).toBe(block.number);
    expect(read.timestamp).toBe(block.timestamp);
    expect(read.holdings).toEqual([
      {
        address: buyer.address,
        bnb: await chain.client.getBalance({ address: buyer.address }),
        token: bought - bought / 2n,
        allowances: [maxUint256, 0n],
      },
      { address: stranger, bnb: 0n, token: 0n, allowances: [0n, 0n] },
    ]);
  });

  it("answers no token state without a helper, or for a token the launchpad did not create", async () => {
    const notOurs = await chain.createToken();
    const withoutHelper = await getTokenHoldings(chain.client, { token: notOurs, addresses: [] });
    expect(withoutHelper.info).toBeNull();
    const { weth, helper } = trading();
    const foreign = await getTokenHoldings(chain.client, { token: weth, helper, addresses: [] });
    expect(foreign.info).toBeNull();
  });
});

describe("getTokenInfos", () => {
  it("reads many tokens' states in one RPC request, null for one the launchpad did not create", async () => {
    const { helper, weth } = trading();
    const tokens: Address[] = [await chain.createToken(), weth, await chain.createToken()];
    proxy.reset();
    const infos = await getTokenInfos(counted, { helper, tokens });
    expect(proxy.seen).toEqual([{ batch: false, methods: ["eth_call"] }]);
    expect(infos).toEqual([
      await getTokenInfo(chain.client, { helper, token: tokens[0] as Address }),
      null,
      await getTokenInfo(chain.client, { helper, token: tokens[2] as Address }),
    ]);
  });
});
