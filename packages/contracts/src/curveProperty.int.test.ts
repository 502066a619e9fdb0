import fc from "fast-check";
import { type Address, erc20Abi, maxUint256, type PrivateKeyAccount, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BuyQuote,
  CurveRevertError,
  type CurveState,
  GWEI_UNIT,
  quoteBuyAmount,
  quoteBuyWithFunds,
  quoteSell,
  type SellQuote,
} from "./curve.ts";
import { LaunchpadHelperArtifact, LaunchpadManagerArtifact } from "./generated/artifacts.ts";
import { type LocalLaunchpad, revertReason, startLocalLaunchpad } from "./test/localLaunchpad.ts";

const abi = LaunchpadManagerArtifact.abi;
const helperAbi = LaunchpadHelperArtifact.abi;
const TOKEN = 10n ** 18n;

type Trade =
  | { kind: "buyTokenAMAP"; who: number; funds: bigint }
  | { kind: "buyToken"; who: number; amount: bigint; overpay: bigint }
  | { kind: "sellToken"; who: number; percent: number };

const tradeArb: fc.Arbitrary<Trade> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("buyTokenAMAP" as const),
      who: fc.nat(1),
      funds: fc.oneof(
        { weight: 4, arbitrary: fc.bigInt({ min: parseEther("0.001"), max: parseEther("1") }) },
        { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: parseEther("0.001") }) },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("buyToken" as const),
      who: fc.nat(1),
      // Whole tokens, a few nudged off the gwei grid (GW) or down to zero (ZA).
      amount: fc
        .bigInt({ min: 0n, max: 300_000_000n })
        .map((tokens) => tokens * TOKEN + (tokens % 5n === 0n ? 7n : 0n)),
      overpay: fc.bigInt({ min: 0n, max: parseEther("0.01") }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("sellToken" as const),
      who: fc.nat(1),
      percent: fc.integer({ min: 0, max: 100 }),
    }),
  },
);

let lp: LocalLaunchpad;
let traders: PrivateKeyAccount[];
let creator: PrivateKeyAccount;
const tokens: Address[] = [];
let gasSpent = 0n;
let total = 0n;

/** BNB held by everyone who takes part, plus the gas they burnt: it must never change. */
const everything = async () => {
  const holders = [...traders, creator].map((a) => a.address);
  holders.push(lp.addresses.launchpad, lp.addresses.weth);
  const balances = await Promise.all(
    holders.map((address) => lp.publicClient.getBalance({ address })),
  );
  return balances.reduce((sum, b) => sum + b, gasSpent);
};

/** Quantities a trade sends: funds for buyTokenAMAP, an amount for the others. */
const argsOf = (trade: Trade, held: bigint) =>
  trade.kind === "buyTokenAMAP"
    ? trade.funds
    : trade.kind === "buyToken"
      ? trade.amount
      : ((held * BigInt(trade.percent)) / 100n / GWEI_UNIT) * GWEI_UNIT;

const expectedFor = (state: CurveState, trade: Trade, quantity: bigint): BuyQuote | SellQuote => {
  if (trade.kind === "buyTokenAMAP") return quoteBuyWithFunds(state, quantity);
  if (trade.kind === "buyToken") return quoteBuyAmount(state, quantity);
  return quoteSell(state, quantity);
};

/** Sends (or only simulates) the trade; `maxFunds` and `value` matter for buyToken only. */
const trade = (
  mode: "simulate" | "send",
  account: PrivateKeyAccount,
  token: Address,
  kind: Trade["kind"],
  quantity: bigint,
  pay: { maxFunds: bigint; value: bigint; minAmount: bigint },
) => {
  const call = { account, address: lp.addresses.launchpad, abi } as const;
  if (kind === "buyTokenAMAP") {
    const request = {
      ...call,
      functionName: "buyTokenAMAP",
      args: [token, quantity, pay.minAmount],
      value: quantity,
    } as const;
    return mode === "simulate"
      ? lp.publicClient.simulateContract(request)
      : lp.wallet(account).writeContract(request);
  }
  if (kind === "buyToken") {
    const request = {
      ...call,
      functionName: "buyToken",
      args: [token, quantity, pay.maxFunds],
      value: pay.value,
    } as const;
    return mode === "simulate"
      ? lp.publicClient.simulateContract(request)
      : lp.wallet(account).writeContract(request);
  }
  const request = { ...call, functionName: "sellToken", args: [token, quantity] } as const;
  return mode === "simulate"
    ? lp.publicClient.simulateContract(request)
    : lp.wallet(account).writeContract(request);
};

/** One step: the chain must do what the reference and the helper say, to the wei. */
const checkTrade = async (token: Address, step: Trade, approved: Set<number>) => {
  const account = traders[step.who] as PrivateKeyAccount;
  const held = await lp.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [account.address],
  });
  const quantity = argsOf(step, held);
  const state = await lp.curveState(token);
  const [, , , , graduated] = await lp.publicClient.readContract({
    address: lp.addresses.launchpad,
    abi,
    functionName: "tokens",
    args: [token],
  });
  const lenient = { maxFunds: maxUint256, value: parseEther("10"), minAmount: 0n };
  let expected: BuyQuote | SellQuote;
  try {
    expected = expectedFor(state, step, quantity);
  } catch (error) {
    if (!(error instanceof CurveRevertError)) throw error;
    expect(
      await revertReason(trade("simulate", account, token, step.kind, quantity, lenient)),
    ).toBe(graduated ? "TO" : error.code);
    return;
  }
  if (graduated) {
    expect(
      await revertReason(trade("simulate", account, token, step.kind, quantity, lenient)),
    ).toBe("TO");
    return;
  }

  let paid: bigint;
  if ("proceeds" in expected) {
    const [, , funds, fee] = await lp.publicClient.readContract({
      address: lp.addresses.helper,
      abi: helperAbi,
      functionName: "trySell",
      args: [token, quantity],
    });
    expect([funds, fee]).toEqual([expected.proceeds - expected.fee, expected.fee]);
    if (!approved.has(step.who)) {
      const approval = await lp.confirm(
        await lp.wallet(account).writeContract({
          address: token,
          abi: erc20Abi,
          functionName: "approve",
          args: [lp.addresses.launchpad, maxUint256],
        }),
      );
      gasSpent += approval.gasCost;
      approved.add(step.who);
    }
    paid = expected.fee - expected.proceeds;
  } else {
    const quote = await lp.publicClient.readContract({
      address: lp.addresses.helper,
      abi: helperAbi,
      functionName: "tryBuy",
      args: step.kind === "buyTokenAMAP" ? [token, 0n, quantity] : [token, quantity, 0n],
    });
    expect(quote.slice(2, 5)).toEqual([expected.amount, expected.cost, expected.fee]);
    paid = expected.cost + expected.fee;
  }
  const before = await lp.publicClient.getBalance({ address: account.address });
  const overpay = step.kind === "buyToken" ? step.overpay : 0n;
  const result = await lp.confirm(
    (await trade("send", account, token, step.kind, quantity, {
      maxFunds: paid,
      value: paid + overpay,
      minAmount: expected.amount,
    })) as `0x${string}`,
  );
  gasSpent += result.gasCost;
  const event = result.events.find(
    (e) => e.eventName === "TokenPurchase" || e.eventName === "TokenSale",
  );
  expect(event?.args).toMatchObject({
    account: account.address,
    amount: expected.amount,
    cost: "proceeds" in expected ? expected.proceeds : expected.cost,
    fee: expected.fee,
    price: expected.price,
    offers: expected.offers,
    funds: expected.funds,
  });
  expect(before - (await lp.publicClient.getBalance({ address: account.address }))).toBe(
    paid + result.gasCost,
  );
  expect(await lp.publicClient.getBalance({ address: lp.addresses.launchpad })).toBe(
    await lp.expectedLaunchpadBalance(tokens),
  );
  expect(await everything()).toBe(total);
};

beforeAll(async () => {
  lp = await startLocalLaunchpad({ graduationFunds: parseEther("1.5") });
  traders = await Promise.all(
    [0, 1].map((i) => lp.account(`property-trader-${i}`, parseEther("100"))),
  );
  creator = await lp.account("property-creator", parseEther("100"));
});
afterAll(async () => {
  await lp?.stop();
});

describe("the launchpad under random trade sequences", () => {
  it("matches the curve reference and the helper's quotes to the wei, and never creates or loses BNB", async () => {
    total = await everything();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(0n), fc.bigInt({ min: parseEther("0.001"), max: parseEther("0.5") })),
        fc.array(tradeArb, { minLength: 1, maxLength: 8 }),
        async (preSale, trades) => {
          const created = await lp.createToken(creator, { preSale });
          gasSpent += created.gasCost;
          const token = created.token;
          tokens.push(token);
          const approved = new Set<number>();

          for (const step of trades) await checkTrade(token, step, approved);
        },
      ),
      { numRuns: 15 },
    );
  });
});
