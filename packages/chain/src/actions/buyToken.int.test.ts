import { LaunchpadManagerArtifact } from "@bundler/contracts";
import {
  createPublicClient,
  custom,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  http,
  parseEther,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InsufficientFundsError, RevertError } from "../errors.ts";
import { buyToken } from "./buyToken.ts";
import { quoteBuy } from "./quoteBuy.ts";
import { startTradingTestChain, type TradingTestChain } from "./startTradingTestChain.ts";

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

describe("buyToken", () => {
  it("buys on the curve and the wallet holds exactly the quoted tokens", async () => {
    const token = await chain.createToken();
    const buyer = await chain.wallet();
    const funds = parseEther("0.05");
    const quote = await quoteBuy(chain.client, { ...addresses(), token, funds });
    const result = await buyToken(chain.client, { ...addresses(), account: buyer, token, funds });
    expect(result.route).toBe("curve");
    expect(quote).toMatchObject({ route: "curve", amountIn: funds });
    expect(await chain.tokenBalance(token, buyer.address)).toBe(quote.amountOut);
  });

  it("sends tryBuy's amountMsgValue as msg.value and its amountFunds as funds", async () => {
    const token = await chain.createToken();
    const buyer = await chain.wallet();
    const funds = parseEther("0.03");
    const { quote, hash } = await buyToken(chain.client, {
      ...addresses(),
      account: buyer,
      token,
      funds,
    });
    const tx = await chain.client.getTransaction({ hash });
    const { args } = decodeFunctionData({ abi: LaunchpadManagerArtifact.abi, data: tx.input });
    expect(tx.value).toBe(quote.msgValue);
    expect(args).toEqual([token, quote.funds, (quote.amountOut * 9_500n) / 10_000n]);
    expect(quote.msgValue).toBe(funds);
  });

  it("buys a graduated token through the DEX for the router's quote", async () => {
    const token = await chain.createToken();
    const whale = await chain.wallet();
    const filled = await buyToken(chain.client, {
      ...addresses(),
      account: whale,
      token,
      funds: parseEther("2"),
    });
    expect(filled.route).toBe("curve");
    const buyer = await chain.wallet();
    const funds = parseEther("0.05");
    const quote = await quoteBuy(chain.client, { ...addresses(), token, funds });
    const before = await chain.client.getBalance({ address: buyer.address });
    const result = await buyToken(chain.client, { ...addresses(), account: buyer, token, funds });
    expect(result.route).toBe("dex");
    expect(quote.route).toBe("dex");
    expect(await chain.tokenBalance(token, buyer.address)).toBe(quote.amountOut);
    const after = await chain.client.getBalance({ address: buyer.address });
    expect(before - after).toBe(funds + (await chain.gasPaid([result.hash])));
  });

  it("surfaces the launchpad's Slippage revert as a RevertError in words, sending nothing", async () => {
    const token = await chain.createToken();
    const buyer = await chain.wallet();
    // Demanding 10% more tokens than the curve gives: the launchpad must refuse.
    const buy = buyToken(chain.client, {
      ...addresses(),
      account: buyer,
      token,
      funds: parseEther("0.05"),
      slippageBps: -1000n,
    });
    await expect(buy).rejects.toThrow(RevertError);
    await expect(buy).rejects.toThrow("buy: reverted: the price moved past the slippage limit");
    expect(await chain.client.getTransactionCount({ address: buyer.address })).toBe(0);
  });

  it("throws a RevertError with the reason when a front-run buy reverts on chain", async () => {
    const token = await chain.createToken();
    const buyer = await chain.wallet();
    const sniper = await chain.wallet();
    const gasPrice = await chain.client.getGasPrice();
    let frontRun: Hex | null = await sniper.signTransaction({
      type: "legacy",
      chainId: 31337,
      nonce: 0,
      gas: 300_000n,
      gasPrice,
      to: chain.contracts.launchpad,
      value: parseEther("0.2"),
      data: encodeFunctionData({
        abi: LaunchpadManagerArtifact.abi,
        functionName: "buyTokenAMAP",
        args: [token, parseEther("0.2"), 0n],
      }),
    });
    // A node that lets the sniper's buy in just ahead of ours, after we priced ours.
    const upstream = http(chain.rpcUrl)({ chain: chain.client.chain });
    const client = createPublicClient({
      chain: chain.client.chain,
      pollingInterval: 100,
      cacheTime: 0,
      transport: custom({
        async request({ method, params }) {
          if (method === "eth_sendRawTransaction" && frontRun) {
            await upstream.request({ method, params: [frontRun] });
            frontRun = null;
          }
          return upstream.request({ method, params });
        },
      }),
    });
    const buy = buyToken(client, {
      ...addresses(),
      account: buyer,
      token,
      funds: parseEther("0.05"),
      slippageBps: 0n,
    });
    await expect(buy).rejects.toThrow(
      /^buy \(tx 0x[0-9a-f]{64}\): reverted: the price moved past the slippage limit$/,
    );
    expect(await chain.client.getTransactionCount({ address: buyer.address })).toBe(1);
    expect(await chain.tokenBalance(token, buyer.address)).toBe(0n);
  });

  it("refuses a buy the wallet cannot pay for, naming the shortfall in BNB", async () => {
    const token = await chain.createToken();
    const buyer = await chain.wallet(parseEther("0.5"));
    const gasPrice = 1_000_000_000n;
    const buy = buyToken(chain.client, {
      ...addresses(),
      account: buyer,
      token,
      funds: parseEther("1"),
      gasPrice,
    });
    await expect(buy).rejects.toThrow(InsufficientFundsError);
    const error = (await buy.catch((e: unknown) => e)) as InsufficientFundsError;
    // Half a BNB short on the funds, plus the buy's gas at 1 gwei.
    expect(error.shortfall - parseEther("0.5")).toBeGreaterThan(0n);
    expect(error.shortfall - parseEther("0.5")).toBeLessThan(500_000n * gasPrice);
    expect(error.message).toMatch(
      new RegExp(`^insufficient balance: wallet ${buyer.address} needs 0\\.5\\d+ BNB more$`),
    );
    expect(await chain.client.getTransactionCount({ address: buyer.address })).toBe(0);
  });
});
