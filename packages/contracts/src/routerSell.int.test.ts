import { type Address, erc20Abi, maxUint256, type PrivateKeyAccount, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GWEI_UNIT, quoteSell } from "./curve.ts";
import { LaunchpadManagerArtifact } from "./generated/artifacts.ts";
import { type LocalLaunchpad, revertReason, startLocalLaunchpad } from "./test/localLaunchpad.ts";

// four.meme's router variant of sellToken: a floor (minFunds, on the gross curve quote) and a
// fee (feeRate, at most 5%) paid to feeRecipient out of what the sale fetches; `origin` changes
// nothing.
const abi = LaunchpadManagerArtifact.abi;
let lp: LocalLaunchpad;
let token: Address;
let seller: PrivateKeyAccount;
let recipient: Address;

beforeAll(async () => {
  lp = await startLocalLaunchpad();
  token = (await lp.createToken(await lp.account("creator"))).token;
  seller = await lp.account("router-seller");
  recipient = (await lp.account("fee-recipient", 0n)).address;
  await lp.confirm(
    await lp.wallet(seller).writeContract({
      address: lp.addresses.launchpad,
      abi,
      functionName: "buyTokenAMAP",
      args: [token, parseEther("2"), 0n],
      value: parseEther("2"),
    }),
  );
  await lp.confirm(
    await lp.wallet(seller).writeContract({
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

const tenth = async () => {
  const held = await lp.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [seller.address],
  });
  return (held / 10n / GWEI_UNIT) * GWEI_UNIT;
};
const bnb = (address: Address) => lp.publicClient.getBalance({ address });
type RouterArgs = readonly [bigint, Address, bigint, bigint, bigint, Address];
const simulate = (args: RouterArgs) =>
  lp.publicClient.simulateContract({
    account: seller,
    address: lp.addresses.launchpad,
    abi,
    functionName: "sellToken",
    args,
  });
const send = async (args: RouterArgs) =>
  lp.confirm(
    await lp.wallet(seller).writeContract({
      address: lp.addresses.launchpad,
      abi,
      functionName: "sellToken",
      args,
    }),
  );

describe("sellToken(origin, token, amount, minFunds, feeRate, feeRecipient)", () => {
  it("pays the seller what the two-argument sell pays when the fee rate is 0", async () => {
    const amount = await tenth();
    const expected = quoteSell(await lp.curveState(token), amount);
    const net = expected.proceeds - expected.fee;
    const before = await bnb(seller.address);
    const result = await send([7n, token, amount, net, 0n, recipient]);
    expect((await bnb(seller.address)) - before).toBe(net - result.gasCost);
    const sale = result.events.find((e) => e.eventName === "TokenSale");
    expect(sale?.args).toMatchObject({ account: seller.address, amount, cost: expected.proceeds });
  });

  it("pays feeRate of the sale's net to feeRecipient and the rest to the seller", async () => {
    const amount = await tenth();
    const expected = quoteSell(await lp.curveState(token), amount);
    const net = expected.proceeds - expected.fee;
    const routerFee = (net * 250n) / 10_000n;
    const [sellerBefore, recipientBefore] = [await bnb(seller.address), await bnb(recipient)];
    const result = await send([0n, token, amount, net - routerFee, 250n, recipient]);
    expect((await bnb(recipient)) - recipientBefore).toBe(routerFee);
    expect((await bnb(seller.address)) - sellerBefore).toBe(net - routerFee - result.gasCost);
  });

  it("reverts Slippage when the sale's gross curve quote is below minFunds, and sells nothing", async () => {
    const amount = await tenth();
    const expected = quoteSell(await lp.curveState(token), amount);
    expect(
      await revertReason(simulate([0n, token, amount, expected.proceeds + 1n, 0n, recipient])),
    ).toBe("Slippage");
    expect(
      await revertReason(simulate([0n, token, amount, expected.proceeds + 1n, 100n, recipient])),
    ).toBe("Slippage");
    await expect(
      simulate([0n, token, amount, expected.proceeds, 100n, recipient]),
    ).resolves.toBeDefined();
  });

  it("refuses a fee rate above 5% with FR", async () => {
    const amount = await tenth();
    expect(await revertReason(simulate([0n, token, amount, 0n, 501n, recipient]))).toBe("FR");
  });

  it("reverts GW off the gwei grid and ZA for zero, as the two-argument sell does", async () => {
    expect(await revertReason(simulate([0n, token, GWEI_UNIT + 1n, 0n, 0n, recipient]))).toBe("GW");
    expect(await revertReason(simulate([0n, token, 0n, 0n, 0n, recipient]))).toBe("ZA");
  });

  it("keeps the launchpad's balance equal to the curve's reserve plus fees", async () => {
    expect(await bnb(lp.addresses.launchpad)).toBe(await lp.expectedLaunchpadBalance([token]));
  });
});
