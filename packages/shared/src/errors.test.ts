import { describe, expect, it } from "vitest";
import { catalogueKeyFor, ERROR_CATALOGUE } from "./errors.ts";

describe("the error catalogue", () => {
  it("maps a missing response to the connection error", () => {
    expect(ERROR_CATALOGUE[catalogueKeyFor(null)].title).toBe(
      "Connection Error - The server is currently offline",
    );
  });
  it("maps 429, 413 and 401 to their own entries", () => {
    expect(catalogueKeyFor(429)).toBe("rateLimit");
    expect(catalogueKeyFor(413)).toBe("payloadTooLarge");
    expect(catalogueKeyFor(401)).toBe("unauthorized");
  });
  it("maps every other status to the unexpected error", () => {
    for (const status of [400, 403, 404, 409, 500, 502, 503]) {
      expect(catalogueKeyFor(status)).toBe("unexpected");
    }
  });
});
