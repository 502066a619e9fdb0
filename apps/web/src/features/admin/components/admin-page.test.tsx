import type { Role } from "@bundler/shared";
import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse, http, type RequestHandler } from "msw";
import { Route, Routes } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { adminServer, userId } from "../../../testing/admin-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { LocationProbe, renderInApp, toastTexts } from "../../../testing/render.tsx";
import { AdminPage } from "./admin-page.tsx";

const open = ({
  role = "admin" as Role,
  route = "/admin",
  overrides = [] as RequestHandler[],
} = {}) => {
  const admin = adminServer();
  server.use(...admin.handlers);
  server.use(...overrides);
  renderInApp(
    <>
      <Routes>
        <Route path="/admin" element={<AdminPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </>,
    { route, authKey: "lbk_admin", role },
  );
  return admin.state;
};

const keysShown = () =>
  screen.getAllByTestId("user-row").map((row) => within(row).getAllByRole("cell")[0]?.textContent);

const lastQuery = (state: ReturnType<typeof open>) => state.usersQueries.at(-1);

const header = (name: string) => screen.getByRole("button", { name: new RegExp(`^${name}`) });

describe("the admin dashboard", () => {
  it("shows the stats with revenue in its currency", async () => {
    open();
    expect((await screen.findByTestId("stat-users-value")).textContent).toBe("45");
    expect(screen.getByTestId("stat-users").textContent).toContain("44 active");
    expect(screen.getByTestId("stat-users").textContent).toContain("2 admins · 1 superadmins");
    expect(screen.getByTestId("stat-launches-value").textContent).toBe("7");
    expect(screen.getByTestId("stat-launches").textContent).toContain(
      "drafts: 30 total · 9 paid · 7 executed",
    );
    expect(screen.getByTestId("stat-revenue-value").textContent).toBe("4.6000 BNB");
  });

  it("draws launches and revenue per day", async () => {
    open();
    // recharts is its own chunk, loaded with the panel.
    expect(await screen.findByTestId("stats-chart", {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText("Launches and revenue, last 30 days")).toBeTruthy();
  });

  it("says 'Failed to load admin data' when the stats cannot be read", async () => {
    open({
      overrides: [
        http.get("/api/admin/dashboard/stats", () =>
          HttpResponse.json({ success: false, error: "boom" }, { status: 500 }),
        ),
      ],
    });
    expect((await screen.findByRole("alert")).textContent).toContain("Failed to load admin data");
    expect(toastTexts()).toContain("Failed to load admin data");
  });

  it("asks for 20 users sorted by launchCount descending and shows 6 characters of each key", async () => {
    const state = open();
    await screen.findAllByTestId("user-row");
    expect(lastQuery(state)).toEqual({
      page: "1",
      limit: "20",
      sortField: "launchCount",
      sortDirection: "desc",
    });
    expect(screen.getAllByTestId("user-row")).toHaveLength(20);
    expect(keysShown()[0]).toMatch(/^lbk_\d\d…$/);
    expect(screen.getByTestId("users-range").textContent).toBe("Showing 1-20 of 45");
  });

  it("toggles the active column and starts a new column ascending", async () => {
    const state = open();
    await screen.findAllByTestId("user-row");

    fireEvent.click(header("Launches"));
    await vi.waitFor(() =>
      expect(lastQuery(state)).toMatchObject({ sortField: "launchCount", sortDirection: "asc" }),
    );
    fireEvent.click(header("Key"));
    await vi.waitFor(() =>
      expect(lastQuery(state)).toMatchObject({ sortField: "key", sortDirection: "asc" }),
    );
    await vi.waitFor(() => expect(keysShown()[0]).toBe("lbk_01…"));
    fireEvent.click(header("Key"));
    await vi.waitFor(() => expect(keysShown()[0]).toBe("lbk_45…"));
    expect(lastQuery(state)).toMatchObject({ sortField: "key", sortDirection: "desc" });
  });

  it("sorts by role, active and total spent on the server", async () => {
    const state = open();
    await screen.findAllByTestId("user-row");
    for (const [name, field] of [
      ["Role", "role"],
      ["Active", "isActive"],
      ["Total Spent", "totalSpent"],
    ] as const) {
      fireEvent.click(header(name));
      await vi.waitFor(() => expect(lastQuery(state)).toMatchObject({ sortField: field }));
    }
  });

  it("goes back to page 1 when the sort changes", async () => {
    const state = open({ route: "/admin?page=2" });
    await screen.findAllByTestId("user-row");
    expect(lastQuery(state)?.page).toBe("2");

    fireEvent.click(header("Role"));
    await vi.waitFor(() =>
      expect(lastQuery(state)).toMatchObject({ page: "1", sortField: "role" }),
    );
    expect(screen.getByTestId("location").textContent).toBe("/admin");
  });

  it("pages through users 20 at a time, the page in the URL", async () => {
    const state = open();
    await screen.findAllByTestId("user-row");
    fireEvent.click(screen.getByRole("button", { name: "Page 3" }));

    await vi.waitFor(() => expect(screen.getAllByTestId("user-row")).toHaveLength(5));
    expect(lastQuery(state)?.page).toBe("3");
    expect(screen.getByTestId("location").textContent).toBe("/admin?page=3");
    expect(screen.getByTestId("users-range").textContent).toBe("Showing 41-45 of 45");
  });

  /** Types `text` in the search and submits it. */
  const searchFor = (text: string) => {
    fireEvent.change(screen.getByRole("textbox", { name: "Search users" }), {
      target: { value: text },
    });
    fireEvent.submit(screen.getByRole("form", { name: "User search" }));
  };

  it("asks the server to search every user and shows what it found, not only the page shown", async () => {
    const state = open();
    await screen.findAllByTestId("user-row");
    // User 1 has 1 launch: sorted by launches, it is not on the first page.
    expect(keysShown()).not.toContain("lbk_01…");
    searchFor("device-001");

    await vi.waitFor(() => expect(keysShown()).toEqual(["lbk_01…"]));
    expect(lastQuery(state)).toMatchObject({ search: "device-001", page: "1" });
    expect(screen.getByTestId("users-range").textContent).toBe("Showing 1-1 of 1");
  });

  it("goes back to page 1 for a new search", async () => {
    const state = open({ route: "/admin?page=3" });
    await screen.findAllByTestId("user-row");
    searchFor("lbk_1");
    await vi.waitFor(() => expect(lastQuery(state)).toMatchObject({ search: "lbk_1", page: "1" }));
    expect(screen.getByTestId("location").textContent).not.toContain("page=3");
  });

  it("says no user matches when the server finds none", async () => {
    open();
    await screen.findAllByTestId("user-row");
    searchFor("0x000000000000000000000000000000000000dead");
    await screen.findByText("No user matches the search.");
  });

  it("lists every user again on [clear]", async () => {
    open();
    await screen.findAllByTestId("user-row");
    searchFor("device-001");
    await vi.waitFor(() => expect(keysShown()).toHaveLength(1));
    fireEvent.click(screen.getByRole("button", { name: "[clear]" }));
    await vi.waitFor(() => expect(keysShown()).toHaveLength(20));
    expect(screen.getByTestId("users-range").textContent).toBe("Showing 1-20 of 45");
  });

  it("opens a user's page from their row", async () => {
    open();
    const [first] = await screen.findAllByTestId("user-row");
    fireEvent.click(within(first as HTMLElement).getAllByRole("cell")[4] as HTMLElement);
    expect(screen.getByTestId("location").textContent).toMatch(/^\/admin\/key\/0a1b2c3d-/);
  });

  it("lists every user's pending claims with their owner", async () => {
    open();
    const row = await screen.findByTestId("admin-claim-row");
    expect(within(row).getByRole("link", { name: "lbk_03…" }).getAttribute("href")).toBe(
      `/admin/key/${userId(3)}`,
    );
    expect(row.textContent).toContain("0.0005 BNB");
  });

  it("completes a pending claim once confirmed", async () => {
    const state = open();
    const row = await screen.findByTestId("admin-claim-row");
    fireEvent.click(within(row).getByRole("button", { name: "[complete]" }));
    expect(screen.getByTestId("confirm-dialog").textContent).toContain(
      "Send 0.0005 BNB from the treasury wallet to 0x2222222222222222222222222222222222222222?",
    );
    fireEvent.click(screen.getByRole("button", { name: "[send]" }));

    await vi.waitFor(() => expect(toastTexts()).toContain("Payout sent"));
    expect(state.decisions).toEqual([`complete ${state.pendingClaims[0]?.id}`]);
  });

  it("links the audit log for a superadmin only", async () => {
    open({ role: "superadmin" });
    expect(await screen.findByRole("link", { name: "[audit log]" })).toBeTruthy();
  });

  it("shows no audit log link to an admin, and the builders' page to every admin", async () => {
    open({ role: "admin" });
    await screen.findAllByTestId("user-row");
    expect(screen.queryByRole("link", { name: "[audit log]" })).toBeNull();
    expect(screen.getByRole("link", { name: "[builders]" }).getAttribute("href")).toBe(
      "/admin/builders",
    );
  });
});
