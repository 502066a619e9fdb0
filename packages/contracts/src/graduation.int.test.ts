import {
  type Address,
  erc20Abi,
  maxUint256,
  type PrivateKeyAccount,
  parseAbi,
  parseEther,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEAD_ADDRESS } from "./addresses.ts";
import { CURVE_SUPPLY, LIQUIDITY_SUPPLY, quoteBuyAmount, quoteBuyWithFunds } from "./curve.ts";
import { LaunchpadHelperArtifact, LaunchpadManagerArtifact } from "./generated/artifacts.ts";
import { type LocalLaunchpad, revertReason, startLocalLaunchpad } from "./test/localLaunchpad.ts";

const abi = LaunchpadManagerArtifact.abi;
const dexAbi = parseAbi([
  "function getPair(address, address) view returns (address)",
  "function createPair(address, address) returns (address)",
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function token0() view returns (address)",
  "function sync()",
  "function deposit() payable",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[])",
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[])",
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[])",
]);
let lp: LocalLaunchpad;
let whale: PrivateKeyAccount;

beforeAll(async () => {
  lp = await startLocalLaunchpad();
  whale = await lp.account("whale");
});
afterAll(async () => {
  await lp?.stop();
});

const balanceOf = (token: Address, owner: Address) =>
  lp.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
const pairOf = (token: Address) =>
  lp.publicClient.readContract({
    address: lp.addresses.factory,
    abi: dexAbi,
    functionName: "getPair",
    args: [token, lp.addresses.weth],
  });

describe("graduation", () => {
  let token: Address;

  it("fills the curve with only what is left, refunds the rest, stops trading and seeds the DEX", async () => {
    token = (await lp.createToken(await lp.account("creator"), { preSale: parseEther("2") })).token;
    const funds = parseEther("30");
    const expected = quoteBuyWithFunds(await lp.curveState(token), funds);
    expect(expected.offers).toBe(0n);
    const before = await lp.publicClient.getBalance({ address: whale.address });
    const result = await lp.confirm(
      await lp.wallet(whale).writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyTokenAMAP",
        args: [token, funds, 0n],
        value: funds,
      }),
    );
    expect(before - (await lp.publicClient.getBalance({ address: whale.address }))).toBe(
      expected.cost + expected.fee + result.gasCost,
    );
    expect(result.events.map((e) => e.eventName)).toEqual([
      "TokenPurchase",
      "TradeStop",
      "LiquidityAdded",
    ]);
    expect(result.events[0]?.args).toMatchObject({
      amount: expected.amount,
      cost: expected.cost,
      offers: 0n,
    });
    expect(result.events[1]?.args).toEqual({ token });
    expect(result.events[2]?.args).toEqual({
      base: token,
      offers: LIQUIDITY_SUPPLY,
      quote: "0x0000000000000000000000000000000000000000",
      funds: parseEther("24"),
    });
  });

  it("leaves the pair holding 200M tokens and the raised BNB, its LP tokens burnt", async () => {
    const pair = await pairOf(token);
    expect(await balanceOf(token, pair)).toBe(LIQUIDITY_SUPPLY);
    expect(await balanceOf(lp.addresses.weth, pair)).toBe(parseEther("24"));
    expect(await balanceOf(pair, DEAD_ADDRESS)).toBeGreaterThan(0n);
    expect(await balanceOf(token, lp.addresses.launchpad)).toBe(0n);
    const fees = await lp.publicClient.readContract({
      address: lp.addresses.launchpad,
      abi,
      functionName: "feesAccrued",
    });
    expect(await lp.publicClient.getBalance({ address: lp.addresses.launchpad })).toBe(fees);
    const info = await lp.publicClient.readContract({
      address: lp.addresses.helper,
      abi: LaunchpadHelperArtifact.abi,
      functionName: "getTokenInfo",
      args: [token],
    });
    expect([info[7], info[9], info[11]]).toEqual([0n, parseEther("24"), true]);
  });

  it("refuses every launchpad trade with TO afterwards, and so do the helper's quotes", async () => {
    const call = { account: whale, address: lp.addresses.launchpad, abi } as const;
    const sim = lp.publicClient;
    expect(
      await revertReason(
        sim.simulateContract({
          ...call,
          functionName: "buyTokenAMAP",
          args: [token, 10n ** 17n, 0n],
          value: 10n ** 17n,
        }),
      ),
    ).toBe("TO");
    expect(
      await revertReason(
        sim.simulateContract({
          ...call,
          functionName: "buyToken",
          args: [token, 10n ** 18n, 10n ** 18n],
          value: 10n ** 18n,
        }),
      ),
    ).toBe("TO");
    expect(
      await revertReason(
        sim.simulateContract({ ...call, functionName: "sellToken", args: [token, 10n ** 18n] }),
      ),
    ).toBe("TO");
    expect(
      await revertReason(
        sim.readContract({
          address: lp.addresses.helper,
          abi: LaunchpadHelperArtifact.abi,
          functionName: "tryBuy",
          args: [token, 0n, 10n ** 17n],
        }),
      ),
    ).toBe("TO");
  });

  it("trades on the DEX through the router afterwards, both ways", async () => {
    const path = [lp.addresses.weth, token] as const;
    const wallet = lp.wallet(whale);
    const deadline = 2n ** 40n;
    const [, out] = await lp.publicClient.readContract({
      address: lp.addresses.router,
      abi: dexAbi,
      functionName: "getAmountsOut",
      args: [parseEther("1"), [...path]],
    });
    const held = await balanceOf(token, whale.address);
    await lp.confirm(
      await wallet.writeContract({
        address: lp.addresses.router,
        abi: dexAbi,
        functionName: "swapExactETHForTokens",
        args: [out ?? 0n, [...path], whale.address, deadline],
        value: parseEther("1"),
      }),
    );
    expect((await balanceOf(token, whale.address)) - held).toBe(out);

    await lp.confirm(
      await wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "approve",
        args: [lp.addresses.router, maxUint256],
      }),
    );
    const before = await lp.publicClient.getBalance({ address: whale.address });
    const sold = await lp.confirm(
      await wallet.writeContract({
        address: lp.addresses.router,
        abi: dexAbi,
        functionName: "swapExactTokensForETH",
        args: [10_000_000n * 10n ** 18n, 1n, [token, lp.addresses.weth], whale.address, deadline],
      }),
    );
    expect(
      (await lp.publicClient.getBalance({ address: whale.address })) + sold.gasCost,
    ).toBeGreaterThan(before);
  });

  it("graduates through buyToken too, capping the amount at what is left", async () => {
    const other = (await lp.createToken(await lp.account("creator-2"))).token;
    const expected = quoteBuyAmount(await lp.curveState(other), CURVE_SUPPLY + 10n ** 18n);
    expect(expected.amount).toBe(CURVE_SUPPLY);
    const result = await lp.confirm(
      await lp.wallet(whale).writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyToken",
        args: [other, CURVE_SUPPLY + 10n ** 18n, parseEther("25")],
        value: parseEther("25"),
      }),
    );
    expect(result.events.map((e) => e.eventName)).toEqual([
      "TokenPurchase",
      "TradeStop",
      "LiquidityAdded",
    ]);
    expect(await balanceOf(other, whale.address)).toBe(CURVE_SUPPLY);
  });

  it("still graduates when someone created the pair and seeded it with synced WETH beforehand", async () => {
    const seeded = (await lp.createToken(await lp.account("creator-3"))).token;
    const griefer = lp.wallet(whale);
    await lp.confirm(
      await griefer.writeContract({
        address: lp.addresses.factory,
        abi: dexAbi,
        functionName: "createPair",
        args: [seeded, lp.addresses.weth],
      }),
    );
    const pair = await pairOf(seeded);
    await lp.confirm(
      await griefer.writeContract({
        address: lp.addresses.weth,
        abi: dexAbi,
        functionName: "deposit",
        value: 10n ** 15n,
      }),
    );
    await lp.confirm(
      await griefer.writeContract({
        address: lp.addresses.weth,
        abi: erc20Abi,
        functionName: "transfer",
        args: [pair, 10n ** 15n],
      }),
    );
    await lp.confirm(
      await griefer.writeContract({ address: pair, abi: dexAbi, functionName: "sync" }),
    );

    const result = await lp.confirm(
      await griefer.writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyTokenAMAP",
        args: [seeded, parseEther("25"), 0n],
        value: parseEther("25"),
      }),
    );
    expect(result.events.at(-1)?.eventName).toBe("LiquidityAdded");
    expect(await balanceOf(seeded, pair)).toBe(LIQUIDITY_SUPPLY);
    expect(await balanceOf(lp.addresses.weth, pair)).toBe(parseEther("24") + 10n ** 15n);
    expect(await balanceOf(pair, DEAD_ADDRESS)).toBeGreaterThan(0n);
  });
});
