import { describe, expect, it } from "vitest";
import { type BundleWallet, EMPTY_LAUNCH_FORM } from "./launch-form.ts";
import { planLaunchBody } from "./plan-body.ts";
import { walletFromPrivateKey } from "./private-key.ts";

const DEPLOYER_KEY = `0x${"11".repeat(32)}`;
const TIP_KEY = `0x${"44".repeat(32)}`;
const WALLETS: BundleWallet[] = [
  { address: "0x2222222222222222222222222222222222222222", privateKey: "0x22", buyValue: "0.01" },
  { address: "0x3333333333333333333333333333333333333333", privateKey: "0x33", buyValue: "0.02" },
];

describe("the plan request", () => {
  it("names the addresses the deployer and tip payer keys control", () => {
    const body = planLaunchBody(
      { ...EMPTY_LAUNCH_FORM, deployerPvtk: DEPLOYER_KEY, tipPvtk: TIP_KEY },
      WALLETS,
    );

    expect(body?.deployerAddress).toBe(walletFromPrivateKey(DEPLOYER_KEY)?.address);
    expect(body?.tipPayerAddress).toBe(walletFromPrivateKey(TIP_KEY)?.address);
  });

  it("carries the creator buy, the tip, each wallet's buy and the sniper", () => {
    const body = planLaunchBody(
      {
        ...EMPTY_LAUNCH_FORM,
        deployerBuy: "0.25",
        tip: "0.002",
        delaySnipeAddress: WALLETS[1]?.address ?? "",
      },
      WALLETS,
    );

    expect(body).toEqual({
      creatorBuy: "0.25",
      tip: "0.002",
      wallets: [
        { address: WALLETS[0]?.address, buyValue: "0.01" },
        { address: WALLETS[1]?.address, buyValue: "0.02" },
      ],
      delaySnipeAddress: WALLETS[1]?.address,
    });
  });

  it("counts an empty creator buy as 0 and leaves out keys and a sniper that are not valid", () => {
    const body = planLaunchBody(
      { ...EMPTY_LAUNCH_FORM, deployerPvtk: "0x1234", delaySnipeAddress: "0x12" },
      WALLETS,
    );

    expect(body).toEqual({
      creatorBuy: "0",
      tip: "0.001",
      wallets: WALLETS.map(({ address, buyValue }) => ({ address, buyValue })),
    });
  });

  it("is not made while no wallet buys anything", () => {
    const wallets = WALLETS.map((wallet) => ({ ...wallet, buyValue: "0" }));

    expect(planLaunchBody(EMPTY_LAUNCH_FORM, wallets)).toBeNull();
  });

  it("is not made while an amount is not a BNB amount", () => {
    expect(planLaunchBody({ ...EMPTY_LAUNCH_FORM, tip: "abc" }, WALLETS)).toBeNull();
    expect(planLaunchBody({ ...EMPTY_LAUNCH_FORM, deployerBuy: "0." }, WALLETS)).toBeNull();
    expect(planLaunchBody({ ...EMPTY_LAUNCH_FORM, tip: "-0.001" }, WALLETS)).toBeNull();
  });
});
