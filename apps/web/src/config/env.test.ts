import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";

describe("parseEnv", () => {
  it("defaults the API base to the same origin", () => {
    expect(parseEnv({})).toEqual({ apiBase: "" });
  });

  it("accepts an origin and drops a trailing slash", () => {
    expect(parseEnv({ VITE_API_BASE: "https://api.example.com/" })).toEqual({
      apiBase: "https://api.example.com",
    });
  });

  it("rejects a base that is not an origin", () => {
    expect(() => parseEnv({ VITE_API_BASE: "api.example.com/v1" })).toThrow(/VITE_API_BASE/);
  });
});
