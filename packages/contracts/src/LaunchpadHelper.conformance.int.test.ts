import { type Address, erc20Abi, maxUint256, type PrivateKeyAccount, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GWEI_UNIT, quoteSell } from "./curve.ts";
import { LaunchpadHelperArtifact, LaunchpadManagerArtifact } from "./generated/artifacts.ts";
import { type LocalLaunchpad, startLocalLaunchpad } from "./test/localLaunchpad.ts";

/**
 * The local LaunchpadHelper against four.meme's documentation of TokenManagerHelper3
 * (four-meme-community/fourmeme-docs: docs/trade-guide.md §2, integration-guide.md §3,
 * abi/TokenManagerHelper3.lite.json, contracts/interfaces/ITokenManagerHelper3.sol). Each
 * test names the section it follows; where the model and the docs differ, the model is wrong.
 */
const helperAbi = LaunchpadHelperArtifact.abi;
const managerAbi = LaunchpadManagerArtifact.abi;
let lp: LocalLaunchpad;
let token: Address;
let trader: PrivateKeyAccount;

beforeAll(async () => {
  lp = await startLocalLaunchpad();
  token = (await lp.createToken(await lp.account("helper-creator"))).token;
  trader = await lp.account("helper-trader");
  await lp.confirm(
    await lp.wallet(trader).writeContract({
      address: lp.addresses.launchpad,
      abi: managerAbi,
      functionName: "buyTokenAMAP",
      args: [token, parseEther("2"), 0n],
      value: parseEther("2"),
    }),
  );
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

const held = () =>
  lp.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [trader.address],
  });
const trySell = (amount: bigint) =>
  lp.publicClient.readContract({
    address: lp.addresses.helper,
    abi: helperAbi,
    functionName: "trySell",
    args: [token, amount],
  });
const tryBuy = (amount: bigint, funds: bigint) =>
  lp.publicClient.readContract({
    address: lp.addresses.helper,
    abi: helperAbi,
    functionName: "tryBuy",
    args: [token, amount, funds],
  });
const getTokenInfo = (of: Address) =>
  lp.publicClient.readContract({
    address: lp.addresses.helper,
    abi: helperAbi,
    functionName: "getTokenInfo",
    args: [of],
  });

describe("trySell (trade-guide §2.3)", () => {
  it("trySell: funds is the seller's net, the gross curve quote less the protocol fee, with that fee beside it (trade-guide §2.3)", async () => {
    const amount = ((await held()) / 4n / GWEI_UNIT) * GWEI_UNIT;
    const expected = quoteSell(await lp.curveState(token), amount);
    const [tokenManager, quote, funds, fee] = await trySell(amount);
    expect([tokenManager, quote]).toEqual([
      lp.addresses.launchpad,
      "0x0000000000000000000000000000000000000000",
    ]);
    expect(fee).toBe(expected.fee);
    expect(funds).toBe(expected.proceeds - expected.fee);
  });

  it("trySell: funds is exactly what sellToken(token, amount) then pays the seller (trade-guide §2.3)", async () => {
    const amount = ((await held()) / 4n / GWEI_UNIT) * GWEI_UNIT;
    const [, , funds] = await trySell(amount);
    const before = await lp.publicClient.getBalance({ address: trader.address });
    const sold = await lp.confirm(
      await lp.wallet(trader).writeContract({
        address: lp.addresses.launchpad,
        abi: managerAbi,
        functionName: "sellToken",
        args: [token, amount],
      }),
    );
    expect((await lp.publicClient.getBalance({ address: trader.address })) - before).toBe(
      funds - sold.gasCost,
    );
  });
});

describe("tryBuy (trade-guide §2.2, §7)", () => {
  it("tryBuy(token, 0, funds): amountMsgValue as msg.value and amountFunds as funds buy estimatedAmount, at estimatedCost on the curve plus estimatedFee (trade-guide §2.2, §7)", async () => {
    const budget = parseEther("0.3");
    const [manager, , amount, cost, fee, msgValue, approval, amountFunds] = await tryBuy(
      0n,
      budget,
    );
    expect(manager).toBe(lp.addresses.launchpad);
    expect(approval).toBe(0n);
    expect(cost + fee).toBe(budget);
    const bought = await lp.confirm(
      await lp.wallet(trader).writeContract({
        address: manager,
        abi: managerAbi,
        functionName: "buyTokenAMAP",
        args: [token, amountFunds, amount],
        value: msgValue,
      }),
    );
    const purchase = bought.events.find((e) => e.eventName === "TokenPurchase");
    expect(purchase?.args).toMatchObject({ amount, cost, fee });
  });

  it("tryBuy(token, amount, 0): amountMsgValue, estimatedCost + estimatedFee, pays buyToken for exactly that amount (trade-guide §2.2)", async () => {
    const wanted = parseEther("1000000");
    const [, , amount, cost, fee, msgValue] = await tryBuy(wanted, 0n);
    expect(amount).toBe(wanted);
    expect(msgValue).toBe(cost + fee);
    const before = await lp.publicClient.getBalance({ address: trader.address });
    const bought = await lp.confirm(
      await lp.wallet(trader).writeContract({
        address: lp.addresses.launchpad,
        abi: managerAbi,
        functionName: "buyToken",
        args: [token, wanted, cost + fee],
        value: msgValue,
      }),
    );
    expect(before - (await lp.publicClient.getBalance({ address: trader.address }))).toBe(
      msgValue + bought.gasCost,
    );
  });
});

describe("getTokenInfo (trade-guide §2.1, integration-guide §3)", () => {
  it("getTokenInfo: version 2, the manager, a BNB quote and the manager's _tradingFeeRate() for a token it created (trade-guide §2.1)", async () => {
    const info = await getTokenInfo(token);
    const rate = await lp.publicClient.readContract({
      address: lp.addresses.launchpad,
      abi: managerAbi,
      functionName: "_tradingFeeRate",
    });
    expect(info.slice(0, 3)).toEqual([
      2n,
      lp.addresses.launchpad,
      "0x0000000000000000000000000000000000000000",
    ]);
    expect(info[4]).toBe(rate);
  });

  it("getTokenInfo: version 1 for a TokenManager V1 token, which the app must trade on V1 or not at all (integration-guide §3)", async () => {
    const old = (await lp.createToken(await lp.account("helper-v1"))).token;
    await lp.setTokenKind(old, { version: 1n });
    expect((await getTokenInfo(old))[0]).toBe(1n);
  });
});
