import { AUTH_REVALIDATE_MS } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-error.ts";
import {
  decideStartup,
  isKeyRejection,
  isRecentlyValidated,
  startupFailure,
} from "./stored-session.ts";

const NOW = 1_700_000_000_000;
const HOUR = 60 * 60 * 1000;

describe("isRecentlyValidated", () => {
  it("trusts a key validated a minute ago", () => {
    expect(isRecentlyValidated(NOW - 60_000, NOW)).toBe(true);
  });

  it("trusts a key validated just under 24 hours ago", () => {
    expect(isRecentlyValidated(NOW - AUTH_REVALIDATE_MS + 1, NOW)).toBe(true);
  });

  it("revalidates a key validated exactly 24 hours ago", () => {
    expect(isRecentlyValidated(NOW - AUTH_REVALIDATE_MS, NOW)).toBe(false);
  });

  it("revalidates a key validated 25 hours ago", () => {
    expect(isRecentlyValidated(NOW - 25 * HOUR, NOW)).toBe(false);
  });

  it("revalidates a key that was never validated", () => {
    expect(isRecentlyValidated(null, NOW)).toBe(false);
  });

  it("revalidates a key whose timestamp lies in the future", () => {
    expect(isRecentlyValidated(NOW + HOUR, NOW)).toBe(false);
  });
});

describe("decideStartup", () => {
  it("does nothing without a stored key", () => {
    expect(decideStartup({ key: null, role: "admin", lastValidatedAt: NOW }, NOW)).toEqual({
      kind: "none",
    });
  });

  it("accepts a recent key with its stored role and no call", () => {
    expect(decideStartup({ key: "k", role: "admin", lastValidatedAt: NOW - HOUR }, NOW)).toEqual({
      kind: "trusted",
      key: "k",
      role: "admin",
    });
  });

  it("gives a recent key without a stored role the user role", () => {
    expect(decideStartup({ key: "k", role: null, lastValidatedAt: NOW - HOUR }, NOW)).toEqual({
      kind: "trusted",
      key: "k",
      role: "user",
    });
  });

  it("validates a key last validated more than 24 hours ago", () => {
    expect(
      decideStartup({ key: "k", role: "user", lastValidatedAt: NOW - 30 * HOUR }, NOW),
    ).toEqual({
      kind: "validate",
      key: "k",
    });
  });
});

describe("isKeyRejection", () => {
  it("counts a 401 as a rejection", () => {
    expect(isKeyRejection(new ApiError(401, "Invalid access key"))).toBe(true);
  });

  it("does not count a refused connection as a rejection", () => {
    expect(isKeyRejection(new ApiError(null))).toBe(false);
  });

  it("does not count rate limiting or server errors as a rejection", () => {
    expect(isKeyRejection(new ApiError(429))).toBe(false);
    expect(isKeyRejection(new ApiError(503))).toBe(false);
  });
});

describe("startupFailure", () => {
  it("treats a 401 as a rejection", () => {
    expect(startupFailure(new ApiError(401))).toEqual({ kind: "rejected" });
  });

  it("treats a refused shape (400) as a rejection", () => {
    expect(startupFailure(new ApiError(400))).toEqual({ kind: "rejected" });
  });

  it("shows the connection error when the server is offline", () => {
    expect(startupFailure(new ApiError(null))).toEqual({
      kind: "unreachable",
      title: "Connection Error - The server is currently offline",
      hint: "Please try again later or contact support.",
    });
  });

  it("shows the rate limit error on a 429", () => {
    expect(startupFailure(new ApiError(429))).toEqual({
      kind: "unreachable",
      title: "Rate Limit Reached - Too many requests at once",
      hint: "Please wait a moment and try again.",
    });
  });

  it("shows the unexpected error on a 5xx or anything that threw", () => {
    const unexpected = {
      kind: "unreachable",
      title: "Unexpected Error - Something went wrong",
      hint: "Please try again or contact support.",
    };
    expect(startupFailure(new ApiError(502))).toEqual(unexpected);
    expect(startupFailure(new TypeError("boom"))).toEqual(unexpected);
  });
});
