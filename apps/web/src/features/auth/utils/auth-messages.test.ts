import { AUTH_MESSAGES, ERROR_CATALOGUE } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-error.ts";
import { importFailureMessage } from "./auth-messages.ts";

describe("importFailureMessage", () => {
  it("shows the server's error text when there is one", () => {
    expect(importFailureMessage(new ApiError(401, "Access key is inactive"))).toBe(
      "Access key is inactive",
    );
  });

  it("says the key is invalid on a bare 401", () => {
    expect(importFailureMessage(new ApiError(401))).toBe(AUTH_MESSAGES.invalidKey);
  });

  it("explains that the server is offline when the connection is refused", () => {
    expect(importFailureMessage(new ApiError(null))).toBe(ERROR_CATALOGUE.connection.title);
  });

  it("falls back to the generic authentication failure", () => {
    expect(importFailureMessage(new ApiError(500))).toBe(AUTH_MESSAGES.failed);
  });
});
