import {
  cancelKeyPaymentRoute,
  createRuleRoute,
  dispersalStatusRoute,
  dryRunRuleRoute,
  getBumperRoute,
  pauseRuleRoute,
  ROUTES,
  sellWalletsRoute,
  updateRuleRoute,
  withdrawBumperRoute,
} from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { expectedCalls, requestOn } from "./other-users.row.ts";

const owner = {
  id: "00000000-0000-4000-8000-000000000001",
  key: "owner-key",
  deviceId: "owner-device-1",
  objects: {
    draft: "00000000-0000-4000-8000-000000000002",
    keyPayment: "00000000-0000-4000-8000-000000000003",
    dispersal: "0x1111111111111111111111111111111111111111",
    bundle: "0x2222222222222222222222222222222222222222",
    bumper: "00000000-0000-4000-8000-000000000004",
    rule: "00000000-0000-4000-8000-000000000005",
  },
  wallets: [
    "0x3333333333333333333333333333333333333333",
    "0x4444444444444444444444444444444444444444",
  ] as `0x${string}`[],
};

describe("requestOn", () => {
  it("names the owner's object in every owned field, wherever the route takes it", () => {
    expect(requestOn(dispersalStatusRoute, owner, 1).query).toEqual({
      dispersalId: owner.objects.dispersal,
    });
    expect(requestOn(getBumperRoute, owner, 1).params).toEqual({ id: owner.objects.bumper });
    expect(requestOn(pauseRuleRoute, owner, 1).params).toEqual({ id: owner.objects.rule });
    expect(requestOn(withdrawBumperRoute, owner, 1).body).toMatchObject({
      bumperId: owner.objects.bumper,
    });
  });

  it("makes requests the route's own contract accepts", () => {
    const sell = requestOn(sellWalletsRoute, owner, 1);
    expect(sellWalletsRoute.body.safeParse(sell.body).success).toBe(true);
    expect(sell.body).toMatchObject({ address: owner.objects.bundle, wallets: [owner.wallets[1]] });
  });

  it("makes rule requests the rule routes accept, on the owner's bundle and rule", () => {
    for (const route of [createRuleRoute, dryRunRuleRoute, updateRuleRoute]) {
      const parts = requestOn(route, owner, 1);
      expect(route.body.safeParse(parts.body).success).toBe(true);
    }
    expect(requestOn(createRuleRoute, owner, 1).body).toMatchObject({
      address: owner.objects.bundle,
    });
    expect(requestOn(updateRuleRoute, owner, 1).params).toEqual({ id: owner.objects.rule });
  });

  it("calls a device's key payment from another device, or from the owner's when asked", () => {
    const other = requestOn(cancelKeyPaymentRoute, owner, 1).body as { deviceId: string };
    const own = requestOn(cancelKeyPaymentRoute, owner, 1, "owner").body as { deviceId: string };
    expect(other.deviceId).not.toBe(owner.deviceId);
    expect(own.deviceId).toBe(owner.deviceId);
  });
});

describe("expectedCalls", () => {
  it("counts a call for each owned route, admin route, superadmin route twice and key route", () => {
    expect(expectedCalls(ROUTES)).toBeGreaterThan(ROUTES.length);
    expect(expectedCalls([getBumperRoute])).toBe(2);
  });
});
