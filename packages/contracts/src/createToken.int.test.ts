import { erc20Abi, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signCreateTokenArgs } from "./createTokenArgs.ts";
import {
  createTokenValue,
  newCurve,
  preSaleFee,
  priceAt,
  quoteBuyWithFunds,
  TOTAL_SUPPLY,
} from "./curve.ts";
import { LaunchpadHelperArtifact, LaunchpadManagerArtifact } from "./generated/artifacts.ts";
import { type LocalLaunchpad, revertReason, startLocalLaunchpad } from "./test/localLaunchpad.ts";

const abi = LaunchpadManagerArtifact.abi;
let lp: LocalLaunchpad;

beforeAll(async () => {
  lp = await startLocalLaunchpad();
});
afterAll(async () => {
  await lp?.stop();
});

/** Simulates createToken from `from` with the given args and signature. */
const simulateCreate = async (
  from: Awaited<ReturnType<LocalLaunchpad["account"]>>,
  signed: Awaited<ReturnType<LocalLaunchpad["signedCreate"]>>,
  value = createTokenValue({
    launchFee: parseEther("0.01"),
    tradingFeeRate: 100n,
    preSale: signed.args.preSale,
  }),
) =>
  lp.publicClient.simulateContract({
    account: from,
    address: lp.addresses.launchpad,
    abi,
    functionName: "createToken",
    args: [signed.encoded, signed.signature],
    value,
  });

describe("createToken", () => {
  it("deploys a 1B-supply token held by the launchpad and emits TokenCreate", async () => {
    const creator = await lp.account("creator");
    const before = await lp.publicClient.getBalance({ address: creator.address });
    const created = await lp.createToken(creator, {
      name: "Moon Cat",
      symbol: "MCAT",
      requestId: 1000n,
    });

    const event = created.events.find((e) => e.eventName === "TokenCreate");
    expect(event?.args).toEqual({
      creator: creator.address,
      token: created.token,
      requestId: 1000n,
      name: "Moon Cat",
      symbol: "MCAT",
      totalSupply: TOTAL_SUPPLY,
      launchTime: 0n,
      launchFee: parseEther("0.01"),
    });
    const read = (functionName: "totalSupply" | "decimals" | "name") =>
      lp.publicClient.readContract({ address: created.token, abi: erc20Abi, functionName });
    expect(await read("totalSupply")).toBe(TOTAL_SUPPLY);
    expect(await read("decimals")).toBe(18);
    expect(await read("name")).toBe("Moon Cat");
    expect(
      await lp.publicClient.readContract({
        address: created.token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [lp.addresses.launchpad],
      }),
    ).toBe(TOTAL_SUPPLY);
    const after = await lp.publicClient.getBalance({ address: creator.address });
    expect(before - after).toBe(parseEther("0.01") + created.gasCost);
  });

  it("reports the new token through the helper as a version-2 BNB token with a full curve", async () => {
    const created = await lp.createToken(await lp.account("info"));
    const info = await lp.publicClient.readContract({
      address: lp.addresses.helper,
      abi: LaunchpadHelperArtifact.abi,
      functionName: "getTokenInfo",
      args: [created.token],
    });
    expect(info).toEqual([
      2n,
      lp.addresses.launchpad,
      "0x0000000000000000000000000000000000000000",
      priceAt(parseEther("24"), 0n),
      100n,
      parseEther("0.0001"),
      0n,
      800_000_000n * 10n ** 18n,
      800_000_000n * 10n ** 18n,
      0n,
      parseEther("24"),
      false,
    ]);
  });

  it("makes the creator's first buy with preSale and its fee on top, exactly as the curve reference prices it", async () => {
    const creator = await lp.account("presale");
    const preSale = parseEther("1.5");
    const created = await lp.createToken(creator, { preSale });
    const expected = quoteBuyWithFunds(newCurve(), preSale + preSaleFee(preSale, 100n));
    const purchase = created.events.find((e) => e.eventName === "TokenPurchase");
    expect(purchase?.args).toEqual({
      token: created.token,
      account: creator.address,
      price: expected.price,
      amount: expected.amount,
      cost: expected.cost,
      fee: expected.fee,
      offers: expected.offers,
      funds: expected.funds,
    });
    expect(
      await lp.publicClient.readContract({
        address: created.token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [creator.address],
      }),
    ).toBe(expected.amount);
    expect(await lp.publicClient.getBalance({ address: lp.addresses.launchpad })).toBe(
      await lp.expectedLaunchpadBalance([created.token]),
    );
  });

  it("refuses args signed by anyone but the launch signer, for another chain, or altered after signing", async () => {
    const creator = await lp.account("forger");
    const impostor = await lp.account("impostor");
    const forged = await lp.signedCreate({ creator: creator.address }, impostor);
    expect(await revertReason(simulateCreate(creator, forged))).toBe("Signer");

    const genuine = await lp.signedCreate({ creator: creator.address, name: "Real" });
    const altered = await lp.signedCreate({ creator: creator.address, name: "Fake" });
    expect(
      await revertReason(simulateCreate(creator, { ...altered, signature: genuine.signature })),
    ).toBe("Signer");
    expect(await revertReason(simulateCreate(creator, { ...genuine, signature: "0x1234" }))).toBe(
      "Signer",
    );
    const otherChain = await signCreateTokenArgs({
      signer: lp.launchSigner,
      chainId: 56,
      launchpad: lp.addresses.launchpad,
      args: genuine.encoded,
    });
    expect(await revertReason(simulateCreate(creator, { ...genuine, signature: otherChain }))).toBe(
      "Signer",
    );
  });

  it("refuses a sender other than the args' creator", async () => {
    const creator = await lp.account("owner-of-args");
    const thief = await lp.account("front-runner");
    const signed = await lp.signedCreate({ creator: creator.address });
    expect(await revertReason(simulateCreate(thief, signed))).toBe("Creator");
  });

  it("accepts each request id once", async () => {
    const creator = await lp.account("replayer");
    await lp.createToken(creator, { requestId: 77n });
    const again = await lp.signedCreate({ creator: creator.address, requestId: 77n });
    expect(await revertReason(simulateCreate(creator, again))).toBe("Request");
  });

  it("requires msg.value to cover the launch fee, preSale and the fee on preSale", async () => {
    const creator = await lp.account("payer");
    const signed = await lp.signedCreate({ creator: creator.address, preSale: parseEther("1") });
    expect(await revertReason(simulateCreate(creator, signed, parseEther("1")))).toBe("Value");
    expect(await revertReason(simulateCreate(creator, signed, parseEther("1.02") - 1n))).toBe(
      "Value",
    );
    await expect(simulateCreate(creator, signed, parseEther("1.02"))).resolves.toBeDefined();
  });

  it("keeps trading closed until launchTime, except for the creator's preSale", async () => {
    const creator = await lp.account("early");
    const buyer = await lp.account("early-buyer");
    const block = await lp.publicClient.getBlock();
    const launchTime = block.timestamp + 3600n;
    const created = await lp.createToken(creator, { launchTime, preSale: parseEther("0.1") });
    expect(created.events.some((e) => e.eventName === "TokenPurchase")).toBe(true);

    const buy = () =>
      lp.publicClient.simulateContract({
        account: buyer,
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyTokenAMAP",
        args: [created.token, parseEther("0.1"), 0n],
        value: parseEther("0.1"),
      });
    expect(await revertReason(buy())).toBe("TO");
    await lp.testClient.increaseTime({ seconds: 3600 });
    await lp.testClient.mine({ blocks: 1 });
    await expect(buy()).resolves.toBeDefined();
  });

  it("lets the owner withdraw launch and trading fees, and nobody else", async () => {
    const stranger = await lp.account("fees-stranger");
    const recipient = await lp.account("fees-recipient", 0n);
    const read = () =>
      lp.publicClient.readContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "feesAccrued",
      });
    const fees = await read();
    expect(fees).toBeGreaterThan(0n);
    const withdraw = {
      address: lp.addresses.launchpad,
      abi,
      functionName: "withdrawFees",
      args: [recipient.address],
    } as const;
    expect(
      await revertReason(lp.publicClient.simulateContract({ account: stranger, ...withdraw })),
    ).toBe("OwnableUnauthorizedAccount");
    await lp.confirm(await lp.wallet(lp.deployer).writeContract(withdraw));
    expect(await lp.publicClient.getBalance({ address: recipient.address })).toBe(fees);
    expect(await read()).toBe(0n);
  });
});
