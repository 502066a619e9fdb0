import type { AdminUserRow } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { matchesUserSearch } from "./user-search.ts";

const user = (overrides: Partial<AdminUserRow> = {}): AdminUserRow => ({
  _id: "u1",
  key: "lbk_Ab",
  deviceId: "Device-XYZ-123",
  role: "user",
  isActive: true,
  launchCount: 0,
  totalSpent: "0",
  createdAt: "2026-01-01T00:00:00.000Z",
  lastUsedAt: null,
  ...overrides,
});

describe("matchesUserSearch", () => {
  it("matches everyone on a blank search", () => {
    expect(matchesUserSearch(user(), "  ")).toBe(true);
  });

  it("matches a key by its prefix, whatever the case", () => {
    expect(matchesUserSearch(user(), "LBK_a")).toBe(true);
    expect(matchesUserSearch(user(), "lbk_b")).toBe(false);
  });

  it("matches a whole key pasted in by the characters the list knows", () => {
    expect(matchesUserSearch(user(), "lbk_AbCdEfGh")).toBe(true);
    expect(matchesUserSearch(user(), "lbk_AcCdEfGh")).toBe(false);
  });

  it("matches part of a device id, whatever the case", () => {
    expect(matchesUserSearch(user(), "xyz-1")).toBe(true);
    expect(matchesUserSearch(user({ deviceId: null }), "xyz")).toBe(false);
  });

  it("matches a role", () => {
    expect(matchesUserSearch(user({ role: "superadmin" }), "ADMIN")).toBe(true);
    expect(matchesUserSearch(user({ role: "user" }), "admin")).toBe(false);
  });
});
