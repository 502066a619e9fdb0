import { getDraftRoute } from "@bundler/shared";
import { describe, expect, it, vi } from "vitest";
import { type ApiClientDeps, createApiClient, fillPath } from "./api-client.ts";

describe("fillPath", () => {
  it("substitutes :name segments, URL-encoded", () => {
    expect(fillPath("/api/draft/:id/payment", { id: "a b/c" })).toBe(
      "/api/draft/a%20b%2Fc/payment",
    );
  });

  it("leaves paths without parameters alone", () => {
    expect(fillPath("/api/draft/list")).toBe("/api/draft/list");
  });

  it("refuses a missing parameter instead of calling a wrong path", () => {
    expect(() => fillPath("/api/draft/:id", {})).toThrow("Missing path parameter :id");
  });
});

describe("apiFetch with path params", () => {
  it("calls the route path with its params filled in", async () => {
    const fetch = vi.fn<ApiClientDeps["fetch"]>(async () => new Response("{}", { status: 404 }));
    const { apiFetch } = createApiClient({
      baseUrl: "http://api",
      fetch,
      getAuthKey: () => null,
      onUnauthorized: () => {},
      notify: () => {},
    });
    await apiFetch(getDraftRoute, { params: { id: "123" } }).catch(() => null);
    expect(fetch.mock.calls[0]?.[0]).toBe("http://api/api/draft/123");
  });
});
