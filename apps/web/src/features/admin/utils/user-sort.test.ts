import { describe, expect, it } from "vitest";
import { DEFAULT_USER_SORT, nextUserSort } from "./user-sort.ts";

describe("nextUserSort", () => {
  it("starts at launchCount descending", () => {
    expect(DEFAULT_USER_SORT).toEqual({ sortField: "launchCount", sortDirection: "desc" });
  });

  it("toggles the active column", () => {
    expect(nextUserSort(DEFAULT_USER_SORT, "launchCount")).toEqual({
      sortField: "launchCount",
      sortDirection: "asc",
    });
    expect(nextUserSort({ sortField: "role", sortDirection: "asc" }, "role")).toEqual({
      sortField: "role",
      sortDirection: "desc",
    });
  });

  it("starts a new column ascending", () => {
    expect(nextUserSort(DEFAULT_USER_SORT, "totalSpent")).toEqual({
      sortField: "totalSpent",
      sortDirection: "asc",
    });
  });
});
