import {
  type Address,
  erc20Abi,
  maxUint256,
  type PrivateKeyAccount,
  parseAbi,
  parseEther,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GWEI_UNIT, quoteBuyAmount, quoteBuyWithFunds, quoteSell } from "./curve.ts";
import {
  LaunchpadHelperArtifact,
  LaunchpadManagerArtifact,
  RejectsBnbArtifact,
} from "./generated/artifacts.ts";
import { type LocalLaunchpad, revertReason, startLocalLaunchpad } from "./test/localLaunchpad.ts";

const abi = LaunchpadManagerArtifact.abi;
const helperAbi = LaunchpadHelperArtifact.abi;
let lp: LocalLaunchpad;
let token: Address;
let trader: PrivateKeyAccount;

beforeAll(async () => {
  lp = await startLocalLaunchpad();
  token = (await lp.createToken(await lp.account("creator"))).token;
  trader = await lp.account("trader");
  await lp.confirm(
    await lp.wallet(trader).writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [lp.addresses.launchpad, maxUint256],
    }),
  );
});
afterAll(async () => {
  await lp?.stop();
});

const balanceOf = (owner: Address) =>
  lp.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
const bnb = (address: Address) => lp.publicClient.getBalance({ address });
const simulateBuyAmap = (
  account: PrivateKeyAccount,
  args: readonly [Address, bigint, bigint],
  value: bigint,
) =>
  lp.publicClient.simulateContract({
    account,
    address: lp.addresses.launchpad,
    abi,
    functionName: "buyTokenAMAP",
    args,
    value,
  });
const simulateBuyToken = (
  account: PrivateKeyAccount,
  args: readonly [Address, bigint, bigint],
  value: bigint,
) =>
  lp.publicClient.simulateContract({
    account,
    address: lp.addresses.launchpad,
    abi,
    functionName: "buyToken",
    args,
    value,
  });
const simulateSell = (account: PrivateKeyAccount, args: readonly [Address, bigint]) =>
  lp.publicClient.simulateContract({
    account,
    address: lp.addresses.launchpad,
    abi,
    functionName: "sellToken",
    args,
  });

describe("buyTokenAMAP", () => {
  it("spends exactly `funds`, fee included, for the tokens the reference and tryBuy predict", async () => {
    const funds = parseEther("0.5");
    const state = await lp.curveState(token);
    const expected = quoteBuyWithFunds(state, funds);
    const [, quote, amount, cost, fee, msgValue, approval, amountFunds] =
      await lp.publicClient.readContract({
        address: lp.addresses.helper,
        abi: helperAbi,
        functionName: "tryBuy",
        args: [token, 0n, funds],
      });
    expect({ quote, amount, cost, fee, msgValue, approval, amountFunds }).toEqual({
      quote: "0x0000000000000000000000000000000000000000",
      amount: expected.amount,
      cost: expected.cost,
      fee: expected.fee,
      msgValue: funds,
      approval: 0n,
      amountFunds: funds,
    });

    const before = await bnb(trader.address);
    const tokensBefore = await balanceOf(trader.address);
    const result = await lp.confirm(
      await lp.wallet(trader).writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyTokenAMAP",
        args: [token, funds, expected.amount],
        value: funds,
      }),
    );
    expect(before - (await bnb(trader.address))).toBe(funds + result.gasCost);
    expect((await balanceOf(trader.address)) - tokensBefore).toBe(expected.amount);
    expect(expected.fee).toBeGreaterThanOrEqual(expected.cost / 100n);
  });

  it("charges the minimum fee on a small buy", async () => {
    const funds = parseEther("0.002");
    const expected = quoteBuyWithFunds(await lp.curveState(token), funds);
    expect(expected.fee).toBeGreaterThanOrEqual(parseEther("0.0001"));
    const result = await lp.confirm(
      await lp.wallet(trader).writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyTokenAMAP",
        args: [token, funds, 0n],
        value: funds,
      }),
    );
    const purchase = result.events.find((e) => e.eventName === "TokenPurchase");
    expect(purchase?.args.fee).toBe(expected.fee);
    expect(purchase?.args.cost).toBe(funds - expected.fee);
  });

  it("delivers to `to` in its four-argument form", async () => {
    const friend = await lp.account("friend", 0n);
    const funds = parseEther("0.1");
    const expected = quoteBuyWithFunds(await lp.curveState(token), funds);
    await lp.confirm(
      await lp.wallet(trader).writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyTokenAMAP",
        args: [token, friend.address, funds, 0n],
        value: funds,
      }),
    );
    expect(await balanceOf(friend.address)).toBe(expected.amount);
  });

  it("reverts Slippage below minAmount, Value when msg.value is not funds, ZA when funds only pay the fee", async () => {
    const funds = parseEther("0.3");
    const expected = quoteBuyWithFunds(await lp.curveState(token), funds);
    const buy = (minAmount: bigint, value: bigint, f = funds) =>
      simulateBuyAmap(trader, [token, f, minAmount], value);
    expect(await revertReason(buy(expected.amount + GWEI_UNIT, funds))).toBe("Slippage");
    expect(await revertReason(buy(0n, funds - 1n))).toBe("Value");
    expect(await revertReason(buy(0n, funds + 1n))).toBe("Value");
    expect(await revertReason(buy(0n, parseEther("0.0001"), parseEther("0.0001")))).toBe("ZA");
    expect(await revertReason(buy(0n, 0n, 0n))).toBe("ZA");
  });

  it("refuses a token the launchpad did not create", async () => {
    const stranger = "0x000000000000000000000000000000000000bEEF";
    expect(await revertReason(simulateBuyAmap(trader, [stranger, 1n, 0n], 1n))).toBe("Token");
  });
});

describe("buyToken", () => {
  it("buys an exact amount, refunds msg.value above cost + fee, and matches tryBuy(token, amount, 0)", async () => {
    const amount = 12_345_678n * 10n ** 18n;
    const expected = quoteBuyAmount(await lp.curveState(token), amount);
    const quote = await lp.publicClient.readContract({
      address: lp.addresses.helper,
      abi: helperAbi,
      functionName: "tryBuy",
      args: [token, amount, 0n],
    });
    expect(quote.slice(2)).toEqual([
      amount,
      expected.cost,
      expected.fee,
      expected.cost + expected.fee,
      0n,
      expected.cost + expected.fee,
    ]);
    const before = await bnb(trader.address);
    const tokensBefore = await balanceOf(trader.address);
    const result = await lp.confirm(
      await lp.wallet(trader).writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyToken",
        args: [token, amount, expected.cost + expected.fee],
        value: parseEther("10"),
      }),
    );
    expect(before - (await bnb(trader.address))).toBe(
      expected.cost + expected.fee + result.gasCost,
    );
    expect((await balanceOf(trader.address)) - tokensBefore).toBe(amount);
  });

  it("reverts GW off the gwei grid, ZA for zero, Slippage above maxFunds, More BNB when underpaid", async () => {
    const amount = 1_000_000n * 10n ** 18n;
    const { cost, fee } = quoteBuyAmount(await lp.curveState(token), amount);
    const buy = (a: bigint, maxFunds: bigint, value: bigint) =>
      simulateBuyToken(trader, [token, a, maxFunds], value);
    expect(await revertReason(buy(amount + 1n, parseEther("10"), parseEther("10")))).toBe("GW");
    expect(await revertReason(buy(0n, parseEther("10"), parseEther("10")))).toBe("ZA");
    expect(await revertReason(buy(amount, cost + fee - 1n, parseEther("10")))).toBe("Slippage");
    expect(await revertReason(buy(amount, cost + fee, cost + fee - 1n))).toBe("More BNB");
  });
});

describe("sellToken", () => {
  it("pays proceeds minus the fee, as the reference and trySell (net of the fee) predict", async () => {
    const amount = ((await balanceOf(trader.address)) / 3n / GWEI_UNIT) * GWEI_UNIT;
    const expected = quoteSell(await lp.curveState(token), amount);
    const [, , funds, fee] = await lp.publicClient.readContract({
      address: lp.addresses.helper,
      abi: helperAbi,
      functionName: "trySell",
      args: [token, amount],
    });
    expect([funds, fee]).toEqual([expected.proceeds - expected.fee, expected.fee]);
    const before = await bnb(trader.address);
    const result = await lp.confirm(
      await lp.wallet(trader).writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "sellToken",
        args: [token, amount],
      }),
    );
    expect((await bnb(trader.address)) - before).toBe(
      expected.proceeds - expected.fee - result.gasCost,
    );
    const sale = result.events.find((e) => e.eventName === "TokenSale");
    expect(sale?.args).toMatchObject({
      account: trader.address,
      amount,
      cost: expected.proceeds,
      fee: expected.fee,
    });
  });

  it("reverts GW off the gwei grid and ZA for zero", async () => {
    expect(await revertReason(simulateSell(trader, [token, GWEI_UNIT + 1n]))).toBe("GW");
    expect(await revertReason(simulateSell(trader, [token, 0n]))).toBe("ZA");
  });

  it("keeps the launchpad's balance equal to the curve's reserve plus fees", async () => {
    expect(await bnb(lp.addresses.launchpad)).toBe(await lp.expectedLaunchpadBalance([token]));
  });
});

describe("before graduation", () => {
  it("no tokens can reach the token's DEX pair, sent or bought for it", async () => {
    const factoryAbi = parseAbi(["function createPair(address, address) returns (address)"]);
    const { result: pair, request } = await lp.publicClient.simulateContract({
      account: trader,
      address: lp.addresses.factory,
      abi: factoryAbi,
      functionName: "createPair",
      args: [token, lp.addresses.weth],
    });
    await lp.confirm(await lp.wallet(trader).writeContract(request));
    const send = (to: Address) =>
      lp.publicClient.simulateContract({
        account: trader,
        address: token,
        abi: erc20Abi,
        functionName: "transfer",
        args: [to, GWEI_UNIT],
      });
    expect(await revertReason(send(pair))).toBe("Pair");
    const buyForPair = lp.publicClient.simulateContract({
      account: trader,
      address: lp.addresses.launchpad,
      abi,
      functionName: "buyTokenAMAP",
      args: [token, pair, parseEther("0.01"), 0n],
      value: parseEther("0.01"),
    });
    expect(await revertReason(buyForPair)).toBe("Pair");
    await expect(send("0x000000000000000000000000000000000000bEEF")).resolves.toBeDefined();
  });
});

describe("RejectsBnb", () => {
  it("reverts any plain BNB transfer", async () => {
    const { contractAddress } = await lp.publicClient.waitForTransactionReceipt({
      hash: await lp
        .wallet(trader)
        .deployContract({ abi: RejectsBnbArtifact.abi, bytecode: RejectsBnbArtifact.bytecode }),
    });
    await expect(
      lp.publicClient.call({ account: trader, to: contractAddress ?? undefined, value: 1n }),
    ).rejects.toThrow(/RejectsBnb/);
  });
});
