import type { PreflightResponse } from "@bundler/shared";
import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { adminServer } from "../../../testing/admin-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { PreflightPage } from "./preflight-page.tsx";

const result = (ready: boolean): PreflightResponse => ({
  success: true,
  chain: "bsc",
  checkedAt: "2026-12-06T12:00:00.000Z",
  ready,
  checks: [
    {
      area: "RPC",
      name: "eth_simulateV1",
      status: ready ? "ok" : "failed",
      essential: true,
      detail: ready
        ? "answers eth_simulateV1 (every launch is simulated with it first)"
        : "the RPC does not answer eth_simulateV1 (method not found): every launch is simulated with it before it is signed",
      fix: ready ? null : "use a node that runs BSC v1.6.3 or later",
    },
    {
      area: "Builders",
      name: "48club",
      status: "warning",
      essential: false,
      detail: "48club did not answer (no answer within 2 s)",
      fix: "check its endpoint (puissant-builder.48.club) and this machine's access to it",
    },
  ],
});

const open = (answers: PreflightResponse[]) => {
  const calls = { count: 0 };
  server.use(
    ...adminServer().handlers,
    http.get("/api/admin/dashboard/preflight", () => {
      const answer = answers[Math.min(calls.count, answers.length - 1)];
      calls.count += 1;
      return HttpResponse.json(answer);
    }),
  );
  renderInApp(<PreflightPage />, {
    route: "/admin/preflight",
    authKey: "lbk_super",
    role: "superadmin",
  });
  return calls;
};

describe("the preflight page", () => {
  it("says the setup is not ready, and each check with what it found and what to do", async () => {
    open([result(false)]);
    expect((await screen.findByTestId("preflight-verdict")).textContent).toBe(
      "Not ready: an essential check failed on bsc. Fix what it says before any money moves.",
    );
    const [rpc, builder] = screen.getAllByTestId("preflight-row");
    expect(
      within(rpc as HTMLElement)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual([
      "FAILED",
      "RPC",
      "eth_simulateV1 (essential)",
      "the RPC does not answer eth_simulateV1 (method not found): every launch is simulated with it before it is signed",
      "use a node that runs BSC v1.6.3 or later",
    ]);
    expect(builder?.textContent).toContain("warning");
    // At a phone's width, the same words one check a block.
    const [rpcItem] = screen.getAllByTestId("preflight-item");
    expect(
      [...(rpcItem as HTMLElement).querySelectorAll("p")].map((line) => line.textContent),
    ).toEqual([
      "FAILED RPC: eth_simulateV1 (essential)",
      "the RPC does not answer eth_simulateV1 (method not found): every launch is simulated with it before it is signed",
      "What to do: use a node that runs BSC v1.6.3 or later",
    ]);
  });

  it("checks again when asked", async () => {
    const calls = open([result(false), result(true)]);
    await screen.findByText(/^Not ready/);
    fireEvent.click(screen.getByRole("button", { name: "[check again]" }));
    expect((await screen.findByText(/^Ready/)).textContent).toBe(
      "Ready: every essential check passed on bsc.",
    );
    expect(calls.count).toBe(2);
  });
});
