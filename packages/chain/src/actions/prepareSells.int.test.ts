import {
  DEFAULT_MIN_TRADING_FEE,
  DEFAULT_TRADING_FEE_RATE,
  GWEI_UNIT,
  LaunchpadManagerArtifact,
  quoteSell,
  taxTokenConfigOf,
  tradingFee,
} from "@bundler/contracts";
import {
  type Address,
  createPublicClient,
  decodeFunctionData,
  type Hash,
  http,
  type LocalAccount,
  parseEther,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCountingProxy } from "../dev/countingProxy.ts";
import { InsufficientFundsError, InsufficientTokensError } from "../errors.ts";
import { buyToken } from "./buyToken.ts";
import { getTokenInfo } from "./getTokenInfo.ts";
import { type PreparedSell, prepareSells } from "./prepareSells.ts";
import { routerAbi } from "./routerAbi.ts";
import { prepareSell, sellToken } from "./sellToken.ts";
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

/** `count` new wallets that each bought `token` on the curve. */
const holders = async (token: Address, count: number, funds = parseEther("0.05")) => {
  const accounts: LocalAccount[] = [];
  for (let i = 0; i < count; i++) {
    const account = await chain.wallet();
    await buyToken(chain.client, { ...addresses(), account, token, funds });
    accounts.push(account);
  }
  return accounts;
};

const held = (token: Address, account: LocalAccount) => chain.tokenBalance(token, account.address);

const prepared = (sell: PreparedSell | { error: unknown } | undefined): PreparedSell => {
  if (!sell || "error" in sell)
    throw new Error(`not prepared: ${String((sell as { error?: unknown })?.error)}`);
  return sell;
};

/**
 * Signs every prepared sell (approval, then sale, at consecutive nonces) and mines them all in
 * ONE block, in order; answers each wallet's BNB gained with its gas given back.
 */
const landTogether = async (accounts: LocalAccount[], sells: PreparedSell[], gasPrice: bigint) => {
  const before = await Promise.all(accounts.map((a) => chain.client.getBalance(a)));
  await chain.setBlockTime(0);
  const hashes: Hash[][] = [];
  try {
    for (const [i, sell] of sells.entries()) {
      const account = accounts[i] as LocalAccount;
      let nonce = await chain.client.getTransactionCount({ address: account.address });
      const own: Hash[] = [];
      for (const call of [sell.approval, sell.sale]) {
        if (!call) continue;
        const raw = await account.signTransaction({
          type: "legacy",
          chainId: 31337,
          nonce: nonce++,
          gas: call.gas,
          gasPrice,
          ...call.request,
        });
        own.push(await chain.client.sendRawTransaction({ serializedTransaction: raw }));
      }
      hashes.push(own);
    }
    await chain.testClient.mine({ blocks: 1 });
  } finally {
    await chain.setBlockTime();
  }
  const receipts = await Promise.all(
    hashes.flat().map((hash) => chain.client.getTransactionReceipt({ hash })),
  );
  const after = await Promise.all(accounts.map((a) => chain.client.getBalance(a)));
  return {
    blocks: new Set(receipts.map((r) => r.blockNumber)),
    statuses: receipts.map((r) => r.status),
    gained: await Promise.all(
      accounts.map(
        async (_, i) =>
          (after[i] as bigint) - (before[i] as bigint) + (await chain.gasPaid(hashes[i] ?? [])),
      ),
    ),
  };
};

describe("prepareSells", () => {
  it("prices curve sells in landing order: each wallet gets exactly its quote when all land in one block", async () => {
    const token = await chain.createToken();
    const accounts = await holders(token, 3);
    const amounts = await Promise.all(accounts.map((a) => held(token, a)));
    const { route, gasPrice, sells } = await prepareSells(chain.client, {
      ...addresses(),
      token,
      sellers: accounts.map((a, i) => ({ address: a.address, amount: amounts[i] as bigint })),
    });
    expect(route).toBe("curve");
    const ready = sells.map(prepared);
    expect(ready.every((s) => s.approval !== null)).toBe(true);
    const landed = await landTogether(accounts, ready, gasPrice);
    expect(landed.blocks.size).toBe(1);
    expect(landed.statuses.every((s) => s === "success")).toBe(true);
    expect(landed.gained).toEqual(ready.map((s) => s.quote.amountOut));
    for (const account of accounts) expect(await held(token, account)).toBe(0n);
  });

  it("sells a graduated token through the DEX, every sell of the block landing above its minimum", async () => {
    const token = await chain.createToken();
    const accounts = await holders(token, 3);
    await buyToken(chain.client, {
      ...addresses(),
      account: await chain.wallet(),
      token,
      funds: parseEther("2"),
    });
    const amounts = await Promise.all(accounts.map((a) => held(token, a)));
    const { route, gasPrice, sells } = await prepareSells(chain.client, {
      ...addresses(),
      token,
      sellers: accounts.map((a, i) => ({ address: a.address, amount: amounts[i] as bigint })),
    });
    expect(route).toBe("dex");
    const ready = sells.map(prepared);
    const landed = await landTogether(accounts, ready, gasPrice);
    expect(landed.blocks.size).toBe(1);
    expect(landed.statuses.every((s) => s === "success")).toBe(true);
    expect(landed.gained).toEqual(ready.map((s) => s.quote.amountOut));
  });

  it("sells a graduated tax token through the router's fee-on-transfer swap, pricing each sale after the tax dispatch of the one before, every sale landing with its quote above its floor (tax guide §4)", async () => {
    const recipient = await chain.wallet(0n);
    const token = await chain.createToken({
      tax: taxTokenConfigOf({
        feeRate: 5,
        burnRate: 20,
        divideRate: 30,
        liquidityRate: 40,
        recipientRate: 10,
        recipientAddress: recipient.address,
        minSharing: 100000,
      }),
    });
    const accounts = await holders(token, 3);
    await buyToken(chain.client, {
      ...addresses(),
      account: await chain.wallet(),
      token,
      funds: parseEther("2"),
    });
    const amounts = await Promise.all(accounts.map((a) => held(token, a)));
    const { route, gasPrice, sells } = await prepareSells(chain.client, {
      ...addresses(),
      token,
      sellers: accounts.map((a, i) => ({ address: a.address, amount: amounts[i] as bigint })),
    });
    expect(route).toBe("dex");
    const ready = sells.map(prepared);
    for (const sell of ready) {
      const call = decodeFunctionData({ abi: routerAbi, data: sell.sale.request.data });
      expect(call.functionName).toBe("swapExactTokensForETHSupportingFeeOnTransferTokens");
      expect(sell.minFunds).toBe((sell.quote.amountOut * 9_500n) / 10_000n);
    }
    const landed = await landTogether(accounts, ready, gasPrice);
    expect(landed.blocks.size).toBe(1);
    expect(landed.statuses.every((s) => s === "success")).toBe(true);
    expect(landed.gained).toEqual(ready.map((s) => s.quote.amountOut));
    // The second sale dispatched the first one's tax: the recipient was paid in WBNB.
    expect(await chain.tokenBalance(chain.contracts.weth, recipient.address)).toBeGreaterThan(0n);
  });

  it("signs each curve sale's floor on the gross curve quote, as TokenManager2 compares minFunds (trade-guide §4.2): the simulated gross less the slippage; minOut, what the seller gets at least, is that floor less the launchpad's fee", async () => {
    const token = await chain.createToken();
    const [holder] = (await holders(token, 1)) as [LocalAccount];
    const amount = await held(token, holder);
    const { sells } = await prepareSells(chain.client, {
      ...addresses(),
      token,
      sellers: [{ address: holder.address, amount }],
      slippageBps: 300n,
    });
    const sell = prepared(sells[0]);
    const gross = sell.quote.amountOut + sell.quote.fee;
    expect(sell.minFunds).toBe((gross * 9_700n) / 10_000n);
    expect(sell.minOut).toBe(
      sell.minFunds - tradingFee(sell.minFunds, DEFAULT_TRADING_FEE_RATE, DEFAULT_MIN_TRADING_FEE),
    );
    const call = decodeFunctionData({
      abi: LaunchpadManagerArtifact.abi,
      data: sell.sale.request.data,
    });
    expect(call.functionName).toBe("sellToken");
    expect(call.args).toEqual([0n, token, amount, sell.minFunds, 0n, holder.address]);
  });

  it("reverts a curve sale whose price fell by more than the slippage, though its net would still clear a floor taken on the net (trade-guide §4.2, §5)", async () => {
    const token = await chain.createToken();
    const [seller, whale] = (await holders(token, 2, parseEther("0.3"))) as [
      LocalAccount,
      LocalAccount,
    ];
    const amount = await held(token, seller);
    const { gasPrice, sells } = await prepareSells(chain.client, {
      ...addresses(),
      token,
      sellers: [{ address: seller.address, amount }],
      slippageBps: 100n,
    });
    const sell = prepared(sells[0]);
    const gross = sell.quote.amountOut + sell.quote.fee;
    // The whale sells just enough that the seller's gross falls by 1.5%: more than the 1%
    // slippage, less than a floor on the net (1% under a price already 1% under the gross).
    const info = await getTokenInfo(chain.client, { helper: chain.contracts.helper, token });
    const state = {
      maxFunds: info.maxFunds,
      offers: info.offers,
      tradingFeeRate: info.tradingFeeRate,
      minTradingFee: info.minTradingFee,
    };
    const target = (gross * 985n) / 1000n;
    const grossAfter = (whaleSells: bigint) => {
      const after = quoteSell(state, whaleSells).offers;
      return quoteSell({ ...state, offers: after }, amount).proceeds;
    };
    let [lo, hi] = [0n, (await held(token, whale)) / GWEI_UNIT];
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      if (grossAfter(mid * GWEI_UNIT) > target) lo = mid;
      else hi = mid;
    }
    const moved = grossAfter(hi * GWEI_UNIT);
    expect(moved).toBeLessThan((gross * 99n) / 100n);
    expect(moved).toBeGreaterThan((sell.quote.amountOut * 99n) / 100n);
    await sellToken(chain.client, {
      ...addresses(),
      account: whale,
      token,
      amount: hi * GWEI_UNIT,
    });
    const landed = await landTogether([seller], [sell], gasPrice);
    expect(landed.statuses).toEqual(["success", "reverted"]);
    expect(await held(token, seller)).toBe(amount);
  });

  it("reverts a curve sale whose price fell past its floor before it landed, selling nothing", async () => {
    const token = await chain.createToken();
    const [seller, whale] = (await holders(token, 2, parseEther("1"))) as [
      LocalAccount,
      LocalAccount,
    ];
    const amount = await held(token, seller);
    const { gasPrice, sells } = await prepareSells(chain.client, {
      ...addresses(),
      token,
      sellers: [{ address: seller.address, amount }],
      slippageBps: 100n,
    });
    const sell = prepared(sells[0]);
    // Another holder sells first: the price falls by far more than 1%.
    await sellToken(chain.client, {
      ...addresses(),
      account: whale,
      token,
      amount: await held(token, whale),
    });
    const landed = await landTogether([seller], [sell], gasPrice);
    expect(landed.statuses).toEqual(["success", "reverted"]);
    expect(await held(token, seller)).toBe(amount);
  });

  it("answers a wallet holding none of the token with its reason and still prepares the others", async () => {
    const token = await chain.createToken();
    const [holder] = await holders(token, 1);
    const empty = await chain.wallet();
    const { sells } = await prepareSells(chain.client, {
      ...addresses(),
      token,
      sellers: [
        { address: empty.address, amount: 1n },
        {
          address: (holder as LocalAccount).address,
          amount: await held(token, holder as LocalAccount),
        },
      ],
    });
    expect(sells[0]).toMatchObject({ address: empty.address });
    expect(String((sells[0] as { error: Error }).error.message)).toBe(
      `wallet ${empty.address} holds none of this token`,
    );
    expect(prepared(sells[1]).sale.gas).toBeGreaterThan(0n);
  });

  it("refuses more tokens than a wallet holds, naming the shortfall", async () => {
    const token = await chain.createToken();
    const [holder] = (await holders(token, 1)) as [LocalAccount];
    const { sells } = await prepareSells(chain.client, {
      ...addresses(),
      token,
      sellers: [{ address: holder.address, amount: (await held(token, holder)) + parseEther("5") }],
    });
    const error = (sells[0] as { error: Error }).error;
    expect(error).toBeInstanceOf(InsufficientTokensError);
    expect(error.message).toContain("needs 5 more of token");
  });

  it("names a wallet whose BNB cannot pay the approval and the sale's gas", async () => {
    const token = await chain.createToken();
    const [holder] = (await holders(token, 1)) as [LocalAccount];
    await chain.testClient.setBalance({ address: holder.address, value: 1000n });
    const { sells } = await prepareSells(chain.client, {
      ...addresses(),
      token,
      sellers: [{ address: holder.address, amount: await held(token, holder) }],
    });
    expect((sells[0] as { error: Error }).error).toBeInstanceOf(InsufficientFundsError);
  });

  it("sends no approval for a wallet that already approved the launchpad", async () => {
    const token = await chain.createToken();
    const [holder] = (await holders(token, 1)) as [LocalAccount];
    const amount = await held(token, holder);
    await sellToken(chain.client, { ...addresses(), account: holder, token, amount: amount / 2n });
    const sell = await prepareSell(chain.client, {
      ...addresses(),
      account: holder,
      token,
      amount: amount / 4n,
    });
    expect(sell.approval).toBeNull();
    expect(sell.nonce).toBe(3);
  });

  it("prepares ten wallets' sells in three RPC requests", async () => {
    const token = await chain.createToken();
    const accounts = await holders(token, 10, parseEther("0.01"));
    const amounts = await Promise.all(accounts.map((a) => held(token, a)));
    const proxy = await startCountingProxy(chain.rpcUrl);
    try {
      const counted = createPublicClient({ transport: http(proxy.url), cacheTime: 0 });
      const { sells } = await prepareSells(counted, {
        ...addresses(),
        token,
        sellers: accounts.map((a, i) => ({ address: a.address, amount: amounts[i] as bigint })),
      });
      expect(sells.map(prepared)).toHaveLength(10);
      expect(proxy.seen.flatMap((s) => s.methods).sort()).toEqual([
        "eth_call",
        "eth_gasPrice",
        "eth_simulateV1",
      ]);
    } finally {
      await proxy.close();
    }
  });
});
