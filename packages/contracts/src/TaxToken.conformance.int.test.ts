import {
  type Address,
  erc20Abi,
  maxUint256,
  type PrivateKeyAccount,
  parseAbi,
  parseEther,
  parseEventLogs,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEAD_ADDRESS } from "./addresses.ts";
import { taxTokenConfigOf } from "./createTokenArgs.ts";
import { quoteBuyWithFunds, quoteSell } from "./curve.ts";
import {
  LaunchpadHelperArtifact,
  LaunchpadManagerArtifact,
  TaxTokenArtifact,
} from "./generated/artifacts.ts";
import { type LocalLaunchpad, revertReason, startLocalLaunchpad } from "./test/localLaunchpad.ts";

/**
 * The local launchpad's tax tokens against four.meme's tax guide (fourmeme-docs
 * docs/tax-guide.md, contracts/interfaces/ITaxToken.sol) and create guide §3.4. Each test
 * names the section it follows; where the model and the docs differ, the model is wrong.
 */
const abi = LaunchpadManagerArtifact.abi;
const taxAbi = TaxTokenArtifact.abi;
const dexAbi = parseAbi([
  "function getPair(address, address) view returns (address)",
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[])",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[])",
  "function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
]);
const deadline = 2n ** 40n;
const tokens = (n: bigint) => n * 10n ** 18n;

/** create guide §3.4's first example: 5% fee, 20 burn, 30 dividend, 40 liquidity, 10 recipient. */
const taxInfo = (recipient: Address) => ({
  feeRate: 5,
  burnRate: 20,
  divideRate: 30,
  liquidityRate: 40,
  recipientRate: 10,
  recipientAddress: recipient,
  minSharing: 1_000_000,
});

let lp: LocalLaunchpad;
let recipient: PrivateKeyAccount;
let whale: PrivateKeyAccount;
let holder: PrivateKeyAccount;
let small: PrivateKeyAccount;
let token: Address;

beforeAll(async () => {
  lp = await startLocalLaunchpad();
  recipient = await lp.account("tax-recipient", 0n);
  whale = await lp.account("tax-whale");
  holder = await lp.account("tax-holder");
  small = await lp.account("tax-small");
  token = (
    await lp.createToken(await lp.account("tax-creator"), {
      tax: taxTokenConfigOf(taxInfo(recipient.address)),
    })
  ).token;
});
afterAll(async () => {
  await lp?.stop();
});

const readTax = <T>(functionName: string, args: readonly unknown[] = []) =>
  lp.publicClient.readContract({
    address: token,
    abi: taxAbi,
    functionName,
    args,
  } as never) as Promise<T>;
const balanceOf = (asset: Address, owner: Address) =>
  lp.publicClient.readContract({
    address: asset,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
const buyOnCurve = async (buyer: PrivateKeyAccount, funds: bigint) =>
  lp.confirm(
    await lp.wallet(buyer).writeContract({
      address: lp.addresses.launchpad,
      abi,
      functionName: "buyTokenAMAP",
      args: [token, funds, 0n],
      value: funds,
    }),
  );
const approve = async (owner: PrivateKeyAccount, spender: Address) =>
  lp.confirm(
    await lp.wallet(owner).writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [spender, maxUint256],
    }),
  );
const sellOnDex = async (seller: PrivateKeyAccount, amount: bigint) =>
  lp.confirm(
    await lp.wallet(seller).writeContract({
      address: lp.addresses.router,
      abi: dexAbi,
      functionName: "swapExactTokensForETHSupportingFeeOnTransferTokens",
      args: [amount, 0n, [token, lp.addresses.weth], seller.address, deadline],
    }),
  );

describe("creating a tax token (create-guide §3.4, tax-guide §2.1, §4)", () => {
  it("tax: args carrying tokenTaxInfo make a token of creator type 5, (template >> 10) & 0x3F (tax-guide §2.1)", async () => {
    const info = await lp.publicClient.readContract({
      address: lp.addresses.launchpad,
      abi,
      functionName: "_tokenInfos",
      args: [token],
    });
    expect((info.template >> 10n) & 0x3fn).toBe(5n);
    expect(info.template & 0x10000n).toBe(0n);
  });

  it("tax: feeRate reads in basis points (API 5 → 500) and the rates as given, divideRate as rateHolder, the recipient as founder, minShare in wei (create-guide §3.4, tax-guide §2.2, §4)", async () => {
    expect(await readTax<bigint>("feeRate")).toBe(500n);
    expect(await readTax<bigint>("rateFounder")).toBe(10n);
    expect(await readTax<bigint>("rateHolder")).toBe(30n);
    expect(await readTax<bigint>("rateBurn")).toBe(20n);
    expect(await readTax<bigint>("rateLiquidity")).toBe(40n);
    expect(await readTax<Address>("founder")).toBe(recipient.address);
    expect(await readTax<bigint>("minShare")).toBe(tokens(1_000_000n));
    expect(await readTax<Address>("quote")).toBe(lp.addresses.weth);
  });

  it("tax: allocation rates that do not sum to 100 revert the create (tax-guide §10.1)", async () => {
    const creator = await lp.account("tax-bad-rates");
    const signed = await lp.signedCreate({
      creator: creator.address,
      tax: taxTokenConfigOf({ ...taxInfo(recipient.address), burnRate: 21 }),
    });
    expect(
      await revertReason(
        lp.publicClient.simulateContract({
          account: creator,
          address: lp.addresses.launchpad,
          abi,
          functionName: "createToken",
          args: [signed.encoded, signed.signature],
          value: parseEther("0.01"),
        }),
      ),
    ).toBe("Rates");
  });

  it("tax: a plain create's args still make a plain token, creator type 0 (create-guide §3.4: omit tokenTaxInfo for non-tax tokens)", async () => {
    const plain = (await lp.createToken(await lp.account("tax-plain"))).token;
    const info = await lp.publicClient.readContract({
      address: lp.addresses.launchpad,
      abi,
      functionName: "_tokenInfos",
      args: [plain],
    });
    expect(info.template).toBe(0n);
  });
});

describe("trading a type-5 tax token (tax-guide §1, §4, §5, §7, §8)", () => {
  it("tax: curve buys and sells of a type-5 token are untaxed, priced as a plain token's (tax-guide §1: only TaxToken8/9 are taxed during bonding-curve trading)", async () => {
    const funds = parseEther("2");
    const expected = quoteBuyWithFunds(await lp.curveState(token), funds);
    await buyOnCurve(holder, funds);
    expect(await balanceOf(token, holder.address)).toBe(expected.amount);
    const [, , funds_, fee] = await lp.publicClient.readContract({
      address: lp.addresses.helper,
      abi: LaunchpadHelperArtifact.abi,
      functionName: "trySell",
      args: [token, tokens(1_000_000n)],
    });
    const quoted = quoteSell(await lp.curveState(token), tokens(1_000_000n));
    expect([funds_, fee]).toEqual([quoted.proceeds - quoted.fee, quoted.fee]);
  });

  it("tax: a balance at or over minShare is its share, one below it has none (tax-guide §4 minShare, §7)", async () => {
    await buyOnCurve(small, parseEther("0.002"));
    const held = await balanceOf(token, holder.address);
    const [share] = await readTax<readonly [bigint, bigint, bigint, bigint]>("userInfo", [
      holder.address,
    ]);
    expect(share).toBe(held);
    const [smallShare] = await readTax<readonly [bigint, bigint, bigint, bigint]>("userInfo", [
      small.address,
    ]);
    expect(await balanceOf(token, small.address)).toBeLessThan(tokens(1_000_000n));
    expect(smallShare).toBe(0n);
    expect(await readTax<bigint>("totalShares")).toBe(held);
  });

  it("tax: a DEX buy hands the buyer the pair's amount less amount × feeRate / 10000, the tax kept by the token (tax-guide §4 feeRate)", async () => {
    await buyOnCurve(whale, parseEther("30"));
    const path = [lp.addresses.weth, token] as const;
    const [, out = 0n] = await lp.publicClient.readContract({
      address: lp.addresses.router,
      abi: dexAbi,
      functionName: "getAmountsOut",
      args: [parseEther("0.01"), [...path]],
    });
    const before = await balanceOf(token, whale.address);
    await lp.confirm(
      await lp.wallet(whale).writeContract({
        address: lp.addresses.router,
        abi: dexAbi,
        functionName: "swapExactETHForTokens",
        args: [0n, [...path], whale.address, deadline],
        value: parseEther("0.01"),
      }),
    );
    const tax = (out * 500n) / 10_000n;
    expect((await balanceOf(token, whale.address)) - before).toBe(out - tax);
    expect(await readTax<bigint>("feeAccumulated")).toBe(tax);
    expect(await balanceOf(token, token)).toBe(tax);
  });

  it("tax: a DEX sell sends the pair amount less its tax (tax-guide §4 feeRate: applied on pair sells)", async () => {
    await approve(whale, lp.addresses.router);
    const pair = await lp.publicClient.readContract({
      address: lp.addresses.factory,
      abi: dexAbi,
      functionName: "getPair",
      args: [token, lp.addresses.weth],
    });
    const accumulated = await readTax<bigint>("feeAccumulated");
    const amount = tokens(1_000n);
    const before = await balanceOf(token, pair);
    await sellOnDex(whale, amount);
    expect((await balanceOf(token, pair)) - before).toBe(amount - (amount * 500n) / 10_000n);
    expect((await readTax<bigint>("feeAccumulated")) - accumulated).toBe((amount * 500n) / 10_000n);
  });

  it("tax: once feeAccumulated reaches minDispatch a sell dispatches it by the rates: burnt, added to liquidity, the founder's share sold and sent to the recipient, the holders' credited per share (tax-guide §4, §8 FeeDispatched)", async () => {
    await sellOnDex(whale, tokens(20_000_000n));
    const minDispatch = await readTax<bigint>("minDispatch");
    const accumulated = await readTax<bigint>("feeAccumulated");
    expect(accumulated).toBeGreaterThanOrEqual(minDispatch);
    const burnt = await balanceOf(token, DEAD_ADDRESS);
    const sale = await sellOnDex(whale, tokens(1_000n));
    const [dispatched] = parseEventLogs({
      abi: taxAbi,
      logs: sale.receipt.logs,
      eventName: "FeeDispatched",
    });
    expect(dispatched?.args).toMatchObject({
      amountFounder: (accumulated * 10n) / 100n,
      amountHolder: (accumulated * 30n) / 100n,
      amountBurn: (accumulated * 20n) / 100n,
      amountLiquidity: (accumulated * 40n) / 100n,
    });
    const quoteFounder = dispatched?.args.quoteFounder ?? 0n;
    expect(quoteFounder).toBeGreaterThan(0n);
    expect((await balanceOf(token, DEAD_ADDRESS)) - burnt).toBe((accumulated * 20n) / 100n);
    expect(await balanceOf(lp.addresses.weth, recipient.address)).toBe(quoteFounder);
    expect(await readTax<bigint>("feeFounder")).toBe(quoteFounder);
    expect(await readTax<bigint>("feeHolder")).toBe(dispatched?.args.quoteHolder);
  });

  it("tax: holders' claimable rewards are their share of quoteHolder, none below minShare; claimFee pays the quote to the holder and claimFee(accounts) to each listed account (tax-guide §7)", async () => {
    const quoteHolder = await readTax<bigint>("feeHolder");
    const claimable = await readTax<bigint>("claimableFee", [holder.address]);
    const whaleClaimable = await readTax<bigint>("claimableFee", [whale.address]);
    // The two holders over minShare split it by share, to within the per-share rounding.
    expect(claimable).toBeGreaterThan(0n);
    expect(quoteHolder - (claimable + whaleClaimable)).toBeLessThanOrEqual(2n);
    expect(await readTax<bigint>("claimableFee", [small.address])).toBe(0n);

    const keeper = await lp.account("tax-keeper");
    const claimed = await lp.confirm(
      await lp.wallet(keeper).writeContract({
        address: token,
        abi: taxAbi,
        functionName: "claimFee",
        args: [[holder.address, small.address]],
      }),
    );
    const [event] = parseEventLogs({
      abi: taxAbi,
      logs: claimed.receipt.logs,
      eventName: "FeeClaimed",
    });
    expect(event?.args).toEqual({ account: holder.address, amount: claimable });
    expect(await balanceOf(lp.addresses.weth, holder.address)).toBe(claimable);
    expect(await balanceOf(lp.addresses.weth, keeper.address)).toBe(0n);
    expect(await readTax<bigint>("claimedFee", [holder.address])).toBe(claimable);
    expect(await readTax<bigint>("claimableFee", [holder.address])).toBe(0n);

    await lp.confirm(
      await lp
        .wallet(whale)
        .writeContract({ address: token, abi: taxAbi, functionName: "claimFee", args: [] }),
    );
    expect(await balanceOf(lp.addresses.weth, whale.address)).toBe(whaleClaimable);
  });
});
