import type { Role } from "@bundler/shared";
import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse, http, type RequestHandler } from "msw";
import { Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  adminClaimFixture,
  adminServer,
  userDetailFixture,
  userId,
} from "../../../testing/admin-handlers.ts";
import { PAYMENT_ADDRESS } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { LocationProbe, renderInApp, toastTexts } from "../../../testing/render.tsx";
import { AdminUserPage } from "./admin-user-page.tsx";

const KEY = `0x${"5".repeat(64)}`;

const open = ({
  role = "admin" as Role,
  id = userId(3),
  overrides = [] as RequestHandler[],
} = {}) => {
  const admin = adminServer();
  server.use(...admin.handlers);
  server.use(...overrides);
  renderInApp(
    <>
      <Routes>
        <Route path="/admin/key/:id" element={<AdminUserPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </>,
    { route: `/admin/key/${id}`, authKey: "lbk_admin", role },
  );
  return admin.state;
};

const openKeyViewer = async () => {
  const [draftRow] = await screen.findAllByTestId("draft-row");
  fireEvent.click(within(draftRow as HTMLElement).getByRole("button", { name: "[payment key]" }));
  return screen.getByTestId("payment-key-dialog");
};

const retrieveWith = (reason: string) => {
  fireEvent.change(screen.getByRole("textbox", { name: "Reason" }), { target: { value: reason } });
  fireEvent.click(screen.getByRole("button", { name: "Retrieve Key" }));
};

const writeText = vi.fn(async (_text: string) => {});
beforeEach(() => {
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
});
afterEach(() => writeText.mockClear());

describe("the admin user page", () => {
  it("shows the user's details, launches and drafts", async () => {
    open();
    expect((await screen.findByTestId("user-key")).textContent).toBe("lbk_03…");
    expect(screen.getByText("device-003")).toBeTruthy();
    expect(screen.getAllByTestId("launch-row")).toHaveLength(1);
    expect(screen.getByTestId("launch-row").textContent).toContain("MCAT");
    const drafts = screen.getAllByTestId("draft-row");
    expect(drafts).toHaveLength(2);
    expect(drafts[0]?.textContent).toContain("executed");
    expect(drafts[0]?.textContent).toContain("0.5000 BNB");
  });

  it("names each draft by its token's name and ticker, each shown once", async () => {
    open();
    const [draft] = await screen.findAllByTestId("draft-row");
    const table = draft?.closest("table") as HTMLTableElement;
    const headers = Array.from(table.querySelectorAll("th"), (th) => th.textContent);
    expect(headers.slice(0, 2)).toEqual(["Name", "Ticker"]);
    expect(headers).not.toContain("Symbol");
    const cells = Array.from((draft as HTMLTableRowElement).cells, (cell) => cell.textContent);
    expect(cells.slice(0, 2)).toEqual(["Moon Cat", "MCAT"]);
  });

  it("shows the role read-only to an admin", async () => {
    open({ role: "admin" });
    expect((await screen.findByTestId("user-role")).textContent).toBe("user");
    expect(screen.queryByRole("combobox", { name: "Role" })).toBeNull();
  });

  /** Picks `role` in the select and confirms it in the dialog that asks. */
  const changeRoleTo = async (role: Role) => {
    fireEvent.change(await screen.findByRole("combobox", { name: "Role" }), {
      target: { value: role },
    });
    const dialog = screen.getByTestId("confirm-dialog");
    fireEvent.click(within(dialog).getByRole("button", { name: "[change role]" }));
  };

  it("asks before changing a role, saying from which to which, and changes nothing yet", async () => {
    const state = open({ role: "superadmin" });
    fireEvent.change(await screen.findByRole("combobox", { name: "Role" }), {
      target: { value: "admin" },
    });
    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog.textContent).toContain("Change this key's role from user to admin?");
    expect(state.roleChanges).toEqual([]);
  });

  it("keeps the role when the change is cancelled", async () => {
    const state = open({ role: "superadmin" });
    fireEvent.change(await screen.findByRole("combobox", { name: "Role" }), {
      target: { value: "superadmin" },
    });
    fireEvent.click(
      within(screen.getByTestId("confirm-dialog")).getByRole("button", { name: "[cancel]" }),
    );
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(screen.getByRole<HTMLSelectElement>("combobox", { name: "Role" }).value).toBe("user");
    expect(state.roleChanges).toEqual([]);
  });

  it("changes the role once confirmed and says 'Role updated to {role}'", async () => {
    const state = open({ role: "superadmin" });
    await changeRoleTo("admin");

    await vi.waitFor(() => expect(toastTexts()).toContain("Role updated to admin"));
    expect(state.roleChanges).toEqual([{ id: userId(3), role: "admin" }]);
    await vi.waitFor(() =>
      expect(screen.getByRole<HTMLSelectElement>("combobox", { name: "Role" }).value).toBe("admin"),
    );
  });

  it("says it failed to update the role, then the server's reason, when refused", async () => {
    open({
      role: "superadmin",
      overrides: [
        http.put("/api/admin/dashboard/users/:id/role", () =>
          HttpResponse.json(
            { success: false, error: "The last superadmin cannot be demoted" },
            { status: 409 },
          ),
        ),
      ],
    });
    await changeRoleTo("admin");
    await vi.waitFor(() =>
      expect(toastTexts()).toContain(
        "Failed to update role: The last superadmin cannot be demoted",
      ),
    );
  });

  it("says 'Failed to update role' when the refusal gives no reason", async () => {
    open({
      role: "superadmin",
      overrides: [
        http.put("/api/admin/dashboard/users/:id/role", () =>
          HttpResponse.json({ success: false }, { status: 500 }),
        ),
      ],
    });
    await changeRoleTo("admin");
    await vi.waitFor(() => expect(toastTexts()).toContain("Failed to update role"));
  });

  it("says 'Failed to load user details' and goes back to /admin", async () => {
    open({ id: userId(99) });
    await vi.waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/admin"));
    expect(toastTexts()).toContain("Failed to load user details");
  });

  it("deactivates a key once confirmed", async () => {
    const state = open();
    fireEvent.click(await screen.findByRole("button", { name: "[deactivate]" }));
    fireEvent.click(
      within(screen.getByTestId("confirm-dialog")).getByRole("button", { name: "[deactivate]" }),
    );
    await vi.waitFor(() => expect(toastTexts()).toContain("Key deactivated"));
    expect(state.activeChanges).toEqual([{ id: userId(3), isActive: false }]);
    await vi.waitFor(() =>
      expect(screen.getByTestId("user-active").textContent).toBe("deactivated"),
    );
  });

  it("offers the payment key only for drafts with a payment address", async () => {
    open();
    const drafts = await screen.findAllByTestId("draft-row");
    expect(
      within(drafts[0] as HTMLElement).queryByRole("button", { name: "[payment key]" }),
    ).toBeTruthy();
    expect(
      within(drafts[1] as HTMLElement).queryByRole("button", { name: "[payment key]" }),
    ).toBeNull();
  });

  it("warns that a key view is logged and asks for a reason first", async () => {
    const state = open();
    const dialog = await openKeyViewer();
    expect(within(dialog).getByRole("note").textContent).toBe(
      "Every view of a payment private key is logged and monitored. View it only for a legitimate refund.",
    );
    fireEvent.click(screen.getByRole("button", { name: "Retrieve Key" }));
    expect(
      await screen.findByText("Please give a reason for viewing this private key"),
    ).toBeTruthy();
    expect(state.keyViews).toEqual([]);
  });

  it("masks the key until Show, and copies only once it is shown", async () => {
    const state = open();
    await openKeyViewer();
    retrieveWith("refund of a late payment");

    const key = await screen.findByTestId("payment-private-key");
    expect(state.keyViews).toEqual([
      { id: userDetailFixture().drafts[0]?._id, reason: "refund of a late payment" },
    ]);
    expect(key.textContent).not.toContain("5555");
    expect(screen.getByText(`Address ${PAYMENT_ADDRESS}`)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy" })).toHaveProperty("disabled", true);

    fireEvent.click(screen.getByRole("button", { name: "Show" }));
    expect(key.textContent).toBe(KEY);
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    await vi.waitFor(() => expect(toastTexts()).toContain("Private key copied to clipboard"));
    expect(writeText).toHaveBeenCalledWith(KEY);
  });

  it("says 'Only admins can view private keys' on a 403", async () => {
    open({
      overrides: [
        http.get("/api/admin/dashboard/drafts/:id/payment-key", () =>
          HttpResponse.json({ success: false, error: "Forbidden" }, { status: 403 }),
        ),
      ],
    });
    await openKeyViewer();
    retrieveWith("refund");
    await vi.waitFor(() => expect(toastTexts()).toContain("Only admins can view private keys"));
    expect(screen.queryByTestId("payment-private-key")).toBeNull();
  });

  it("says 'Failed to retrieve private key' on any other failure", async () => {
    open({
      overrides: [
        http.get("/api/admin/dashboard/drafts/:id/payment-key", () =>
          HttpResponse.json({ success: false }, { status: 500 }),
        ),
      ],
    });
    await openKeyViewer();
    retrieveWith("refund");
    await vi.waitFor(() => expect(toastTexts()).toContain("Failed to retrieve private key"));
  });

  it("rejects the user's pending claim once confirmed", async () => {
    const state = open();
    const row = await screen.findByTestId("admin-claim-row");
    fireEvent.click(within(row).getByRole("button", { name: "[reject]" }));
    fireEvent.click(
      within(screen.getByTestId("confirm-dialog")).getByRole("button", { name: "[reject]" }),
    );
    await vi.waitFor(() => expect(toastTexts()).toContain("Claim rejected"));
    expect(state.decisions).toEqual([`reject ${userDetailFixture().claims[0]?.id}`]);
  });

  it("follows a claim whose payout is on its way until it completes", async () => {
    const state = open();
    const sent = adminClaimFixture({ txHash: `0x${"ab".repeat(32)}` });
    state.detail = userDetailFixture({ claims: [sent] });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await screen.findByText("payout sent, waiting to be mined");

    state.detail = userDetailFixture({
      claims: [{ ...sent, status: "completed" }],
    });
    await vi.advanceTimersByTimeAsync(5_000);
    await vi.waitFor(() =>
      expect(screen.getByTestId("admin-claim-status").textContent).toContain("completed"),
    );
  });
});
