import { describe, expect, it } from "vitest";
import {
  isStaleTestDatabase,
  newTestDatabaseName,
  STALE_TEST_DATABASE_MS,
} from "./database-name.ts";

const NOW = 1_750_000_000_000;

describe("test database names", () => {
  it("carry their creation time in seconds", () => {
    expect(newTestDatabaseName(NOW, "0a1b2c3d")).toBe("lb_test_1750000000_0a1b2c3d");
  });

  it("are not stale while younger than two hours, so parallel runs keep theirs", () => {
    const name = newTestDatabaseName(NOW - STALE_TEST_DATABASE_MS + 1000, "0a1b2c3d");
    expect(isStaleTestDatabase(name, NOW)).toBe(false);
  });

  it("are stale once older than two hours", () => {
    const name = newTestDatabaseName(NOW - STALE_TEST_DATABASE_MS - 1000, "0a1b2c3d");
    expect(isStaleTestDatabase(name, NOW)).toBe(true);
  });

  it("never count a database of another shape as stale", () => {
    for (const name of ["lb_test_0a1b2c3d4e5f", "test", "lb_test_1_x", "lb_test_1750000000_zz"]) {
      expect(isStaleTestDatabase(name, NOW + 10 * STALE_TEST_DATABASE_MS)).toBe(false);
    }
  });
});
