import { describe, expect, it } from "vitest";
import {
  adminUsersQuerySchema,
  paymentKeyQuerySchema,
  updateUserActiveRoute,
  updateUserRoleRoute,
} from "./admin.ts";
import { adminClaimsQuerySchema, rejectClaimRoute } from "./admin-claims.ts";

const firstMessage = (result: { error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues[0]?.message;

describe("the admin users query", () => {
  it("defaults to page 1 of 20, by launch count descending", () => {
    expect(adminUsersQuerySchema.parse({})).toEqual({
      page: 1,
      limit: 20,
      sortField: "launchCount",
      sortDirection: "desc",
    });
  });

  it("takes every sortable column and both directions", () => {
    for (const sortField of ["key", "role", "isActive", "launchCount", "totalSpent"])
      expect(
        adminUsersQuerySchema.parse({ sortField, sortDirection: "asc", page: "3", limit: "5" }),
      ).toEqual({ page: 3, limit: 5, sortField, sortDirection: "asc" });
  });

  it("refuses an unknown column, direction, page or limit with the rule in words", () => {
    expect(firstMessage(adminUsersQuerySchema.safeParse({ sortField: "keyHash" }))).toBe(
      "sortField must be one of key, role, isActive, launchCount, totalSpent",
    );
    expect(firstMessage(adminUsersQuerySchema.safeParse({ sortDirection: "up" }))).toBe(
      "sortDirection must be asc or desc",
    );
    expect(firstMessage(adminUsersQuerySchema.safeParse({ page: "0" }))).toBe(
      "page must be a whole number from 1 up",
    );
    expect(firstMessage(adminUsersQuerySchema.safeParse({ limit: "101" }))).toBe(
      "limit must be a whole number from 1 to 100",
    );
  });
});

describe("admin actions", () => {
  it("take only the three roles", () => {
    expect(updateUserRoleRoute.body.parse({ role: "admin" })).toEqual({ role: "admin" });
    expect(firstMessage(updateUserRoleRoute.body.safeParse({ role: "root" }))).toBe(
      "role must be user, admin or superadmin",
    );
  });

  it("take isActive as a boolean only", () => {
    expect(firstMessage(updateUserActiveRoute.body.safeParse({ isActive: "yes" }))).toBe(
      "isActive must be true or false",
    );
  });

  it("need a non-blank reason to view a payment key", () => {
    expect(firstMessage(paymentKeyQuerySchema.safeParse({}))).toBe(
      "Please give a reason for viewing this private key",
    );
    expect(firstMessage(paymentKeyQuerySchema.safeParse({ reason: "   " }))).toBe(
      "Please give a reason for viewing this private key",
    );
    expect(paymentKeyQuerySchema.parse({ reason: " refund to 0xabc " }).reason).toBe(
      "refund to 0xabc",
    );
  });

  it("reject a claim with or without a reason", () => {
    expect(rejectClaimRoute.body.parse(undefined)).toBeUndefined();
    expect(rejectClaimRoute.body.parse({})).toEqual({});
    expect(rejectClaimRoute.body.parse({ reason: " spam " })).toEqual({ reason: "spam" });
  });

  it("list claims by status", () => {
    expect(adminClaimsQuerySchema.parse({ status: "pending" })).toEqual({
      page: 1,
      status: "pending",
    });
    expect(firstMessage(adminClaimsQuerySchema.safeParse({ status: "open" }))).toBe(
      "status must be pending, completed or rejected",
    );
  });
});
