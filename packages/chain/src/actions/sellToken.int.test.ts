import { GWEI_UNIT } from "@bundler/contracts";
import { type Address, formatEther, type LocalAccount, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InsufficientTokensError } from "../errors.ts";
import { buyToken } from "./buyToken.ts";
import { quoteSell } from "./quoteSell.ts";
import { sellToken } from "./sellToken.ts";
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

/** A new wallet holding `token` bought on the curve. */
const holder = async (token: Address, funds = parseEther("0.1")) => {
  const account = await chain.wallet();
  await buyToken(chain.client, { ...addresses(), account, token, funds });
  return { account, held: await chain.tokenBalance(token, account.address) };
};

/** Sells and measures what the wallet received, its gas given back. */
const sellAndMeasure = async (account: LocalAccount, token: Address, amount: bigint) => {
  const before = await chain.client.getBalance({ address: account.address });
  const result = await sellToken(chain.client, { ...addresses(), account, token, amount });
  const after = await chain.client.getBalance({ address: account.address });
  return { result, received: after - before + (await chain.gasPaid(result.hashes)) };
};

describe("sellToken", () => {
  it("sells on the curve after approving the launchpad, receiving exactly the quote: trySell's funds, already net of the fee (trade-guide §2.3)", async () => {
    const token = await chain.createToken();
    const { account, held } = await holder(token);
    const quote = await quoteSell(chain.client, { ...addresses(), token, amount: held });
    const { result, received } = await sellAndMeasure(account, token, held);
    expect(result).toMatchObject({ route: "curve", approved: true });
    expect(result.hashes).toHaveLength(2);
    expect(quote).toMatchObject({ route: "curve", amountIn: held });
    expect(received).toBe(quote.amountOut);
    expect(await chain.tokenBalance(token, account.address)).toBe(0n);
  });

  it("sells again without a second approval", async () => {
    const token = await chain.createToken();
    const { account, held } = await holder(token);
    await sellToken(chain.client, { ...addresses(), account, token, amount: held / 2n });
    const { result } = await sellAndMeasure(account, token, held / 4n);
    expect(result).toMatchObject({ route: "curve", approved: false });
    expect(result.hashes).toHaveLength(1);
  });

  it("rounds a curve sell down to whole gwei units, keeping the remainder", async () => {
    const token = await chain.createToken();
    const { account, held } = await holder(token);
    const amount = held / 2n + 123_456_789n;
    const sold = amount - (amount % GWEI_UNIT);
    const quote = await quoteSell(chain.client, { ...addresses(), token, amount });
    const { result, received } = await sellAndMeasure(account, token, amount);
    expect(sold).toBeLessThan(amount);
    expect(result.quote.amountIn).toBe(sold);
    expect(quote.amountIn).toBe(sold);
    expect(received).toBe(quote.amountOut);
    expect(await chain.tokenBalance(token, account.address)).toBe(held - sold);
  });

  it("sells a graduated token through the DEX: approves the router, then swaps for its quote", async () => {
    const token = await chain.createToken();
    const { account, held } = await holder(token);
    const filled = await buyToken(chain.client, {
      ...addresses(),
      account: await chain.wallet(),
      token,
      funds: parseEther("2"),
    });
    expect(filled.route).toBe("curve");
    const quote = await quoteSell(chain.client, { ...addresses(), token, amount: held });
    const { result, received } = await sellAndMeasure(account, token, held);
    expect(result).toMatchObject({ route: "dex", approved: true });
    expect(result.hashes).toHaveLength(2);
    expect(quote.route).toBe("dex");
    expect(received).toBeGreaterThan(0n);
    expect(received).toBe(quote.amountOut);
    expect(await chain.tokenBalance(token, account.address)).toBe(0n);
  });

  it("refuses to sell more than the wallet holds, naming the shortfall, sending nothing", async () => {
    const token = await chain.createToken();
    const { account, held } = await holder(token);
    const extra = parseEther("1000");
    const sell = sellToken(chain.client, { ...addresses(), account, token, amount: held + extra });
    await expect(sell).rejects.toThrow(InsufficientTokensError);
    await expect(sell).rejects.toThrow(`needs ${formatEther(extra)} more of token ${token}`);
    expect(await chain.client.getTransactionCount({ address: account.address })).toBe(1);
  });
});
