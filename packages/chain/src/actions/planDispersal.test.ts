import fc from "fast-check";
import { type Address, parseEther, parseGwei } from "viem";
import { describe, expect, it } from "vitest";
import { planDispersal, TRANSFER_GAS, WALLETS_PER_CHAIN } from "./planDispersal.ts";

const address = (i: number) => `0x${i.toString(16).padStart(40, "0")}` as Address;

/** Plays a plan forward: each wallet receives a transfer, then pays the next one and its gas. */
const simulate = (plan: ReturnType<typeof planDispersal>, gasPrice: bigint) => {
  const fee = TRANSFER_GAS * gasPrice;
  let receiver = plan.total;
  const finals: bigint[] = [];
  const intermediates: bigint[] = [];
  for (const leg of plan.legs) {
    receiver -= (leg.transfers[0] ?? 0n) + fee;
    let held = leg.transfers[0] ?? 0n;
    for (const next of leg.transfers.slice(1)) {
      intermediates.push(held - next - fee);
      held = next;
    }
    finals.push(held);
  }
  return { receiver, finals, intermediates };
};

describe("planDispersal", () => {
  it("sends each destination its amount directly when anti bubblemaps is off", () => {
    const plan = planDispersal({
      destinations: [{ address: address(1), amount: parseEther("0.5") }],
      antiBubblemaps: false,
      gasPrice: parseGwei("1"),
    });
    expect(plan.legs[0]?.transfers).toEqual([parseEther("0.5")]);
    expect(plan.total).toBe(parseEther("0.5") + 21_000n * parseGwei("1"));
  });

  it("routes each destination through its ten intermediate wallets with anti bubblemaps", () => {
    const plan = planDispersal({
      destinations: [{ address: address(1), amount: 1n }],
      antiBubblemaps: true,
      gasPrice: 1n,
    });
    expect(plan.legs[0]?.transfers).toHaveLength(WALLETS_PER_CHAIN + 1);
    expect(plan.legs[0]?.transfers.at(-1)).toBe(1n);
  });

  it("refuses an amount that is not above zero", () => {
    expect(() =>
      planDispersal({
        destinations: [{ address: address(1), amount: 0n }],
        antiBubblemaps: false,
        gasPrice: 1n,
      }),
    ).toThrow(/must be above zero/);
  });

  it("delivers every amount exactly, leaves every wallet on the route at zero, and burns only the gas it counted", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 21n }), { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 10n ** 11n }),
        (amounts, antiBubblemaps, gasPrice) => {
          const destinations = amounts.map((amount, i) => ({ address: address(i + 1), amount }));
          const plan = planDispersal({ destinations, antiBubblemaps, gasPrice });
          const { receiver, finals, intermediates } = simulate(plan, gasPrice);
          expect(finals).toEqual(amounts);
          expect(receiver).toBe(0n);
          expect(intermediates.every((left) => left === 0n)).toBe(true);
          const sum = amounts.reduce((a, b) => a + b, 0n);
          expect(plan.total).toBe(sum + plan.gas);
        },
      ),
    );
  });
});
