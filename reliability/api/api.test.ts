import { getBumperRoute } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { pathOf, queryOf } from "./api.ts";

describe("pathOf", () => {
  it("fills :name segments with the encoded values, even a lone surrogate", () => {
    expect(pathOf(getBumperRoute, { id: "a/b?c" })).toBe("/api/bumper/a%2Fb%3Fc");
    expect(pathOf(getBumperRoute, { id: "\ud800" })).toBe("/api/bumper/%EF%BF%BD");
  });
});

describe("queryOf", () => {
  it("repeats array values and writes objects as JSON", () => {
    expect(queryOf({ a: [1, 2], b: { c: 1 } })).toBe("?a=1&a=2&b=%7B%22c%22%3A1%7D");
    expect(queryOf(undefined)).toBe("");
  });
});
