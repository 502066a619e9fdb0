import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { adminServer, auditEntryFixture, userId } from "../../../testing/admin-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { LocationProbe, renderInApp, toastTexts } from "../../../testing/render.tsx";
import { AuditPage } from "./audit-page.tsx";

const open = () => {
  const admin = adminServer();
  server.use(...admin.handlers);
  renderInApp(
    <>
      <AuditPage />
      <LocationProbe />
    </>,
    { route: "/admin/audit", authKey: "lbk_super", role: "superadmin" },
  );
  return admin.state;
};

describe("the audit log", () => {
  it("shows the newest 20 actions with who, what, on what, why", async () => {
    const state = open();
    state.audit[0] = auditEntryFixture(25, {
      action: "payment_key_view",
      target: { type: "draft", id: "3f0b7c1e-8a51-4c9d-9a57-6f1c2b3d4e5f" },
      reason: "refund of a late payment",
      details: { address: "0x1111111111111111111111111111111111111111" },
    });
    const rows = await screen.findAllByTestId("audit-row");
    expect(rows).toHaveLength(20);
    const cells = within(rows[0] as HTMLElement)
      .getAllByRole("cell")
      .map((c) => c.textContent);
    expect(cells).toEqual([
      expect.stringMatching(/^Nov 24, 2026, /),
      "lbk_01… (superadmin)",
      "payment key view",
      "draft 3f0b7c1e",
      "refund of a late payment",
      "address: 0x1111111111111111111111111111111111111111",
    ]);
    expect(screen.getByText("25 actions on record, newest first")).toBeTruthy();
  });

  it("says one action on record in the singular", async () => {
    const state = open();
    state.audit.splice(1);
    expect(await screen.findByText("1 action on record, newest first")).toBeTruthy();
  });

  it("links a user target to the user's page", async () => {
    open();
    const [, second] = await screen.findAllByTestId("audit-row");
    expect(
      within(second as HTMLElement)
        .getByRole("link", { name: "user 0a1b2c3d" })
        .getAttribute("href"),
    ).toBe(`/admin/key/${userId(3)}`);
    expect(second?.textContent).toContain("role change");
    expect(second?.textContent).toContain("from: user, to: admin");
  });

  it("pages through the log, the page in the URL", async () => {
    const state = open();
    await screen.findAllByTestId("audit-row");
    fireEvent.click(screen.getByRole("button", { name: "Page 2" }));

    await vi.waitFor(() => expect(screen.getAllByTestId("audit-row")).toHaveLength(5));
    expect(state.auditPages).toEqual([1, 2]);
    expect(screen.getByTestId("location").textContent).toBe("/admin/audit?page=2");
  });

  it("says 'Failed to load admin data' when the log cannot be read", async () => {
    server.use(
      http.get("/api/admin/dashboard/audit", () =>
        HttpResponse.json({ success: false, error: "Forbidden" }, { status: 403 }),
      ),
    );
    renderInApp(<AuditPage />, { route: "/admin/audit", authKey: "lbk_super", role: "superadmin" });
    await vi.waitFor(() => expect(toastTexts()).toContain("Failed to load admin data"));
  });
});
