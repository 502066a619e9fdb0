import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-error.ts";
import { generateFailureMessage, importFailureMessage, importKeyProblem } from "./auth-messages.ts";

describe("importKeyProblem", () => {
  it("asks for a key when the field is blank", () => {
    expect(importKeyProblem("   ")).toBe("Please enter a valid access key");
  });

  it("calls a key longer than any key can be invalid, without the schema's words", () => {
    expect(importKeyProblem(`lbk_${"x".repeat(300)}`)).toBe("Invalid access key");
  });

  it("lets a key of a plausible length through to the server", () => {
    expect(importKeyProblem(" lbk_abc ")).toBeNull();
  });
});

describe("importFailureMessage", () => {
  it("shows the server's error text when there is one", () => {
    expect(importFailureMessage(new ApiError(401, "Access key is inactive"))).toBe(
      "Access key is inactive",
    );
  });

  it("says the key is invalid on a bare 401", () => {
    expect(importFailureMessage(new ApiError(401))).toBe("Invalid access key");
  });

  it("says the key is invalid when the server refuses its shape", () => {
    expect(
      importFailureMessage(new ApiError(400, "key: Too big: expected string to have <=256")),
    ).toBe("Invalid access key");
  });

  it("explains that the server is offline when the connection is refused", () => {
    expect(importFailureMessage(new ApiError(null))).toBe(
      "Connection Error - The server is currently offline",
    );
  });

  it("falls back to the generic authentication failure on a bare server error", () => {
    expect(importFailureMessage(new ApiError(500))).toBe("Authentication failed");
  });

  it("asks to try again when something threw instead of the server answering", () => {
    expect(importFailureMessage(new TypeError("x is undefined"))).toBe(
      "Authentication failed. Please try again.",
    );
  });
});

describe("generateFailureMessage", () => {
  it("says the access key could not be generated when the server refuses", () => {
    expect(
      generateFailureMessage(new ApiError(409, "This device already has an access key.")),
    ).toBe("Failed to generate access key");
  });

  it("says the same when the server cannot be reached", () => {
    expect(generateFailureMessage(new ApiError(null))).toBe("Failed to generate access key");
  });

  it("asks to try again when something threw on the way", () => {
    expect(generateFailureMessage(new Error("storage exploded"))).toBe(
      "Failed to generate new key. Please try again.",
    );
  });
});
