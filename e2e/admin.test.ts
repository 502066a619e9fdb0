/// <reference lib="dom" />
import type { AdminUserRow, AuditEntry } from "@bundler/shared";
import type { Page } from "playwright-core";
import { privateKeyToAccount } from "viem/accounts";
import { type Api, ApiCallError, apiClient } from "./support/api.ts";
import { openBrowser } from "./support/browser.ts";
import { describe, expect, test } from "./support/fixtures.ts";
import { freeKeyFor, logInWithKey, payableDraft } from "./support/flows.ts";
import { shooter } from "./support/shots.ts";

const shoot = shooter("/tmp/admin-shots");

/** Users besides the superadmin: two pages' worth. */
const USERS = 25;

interface UsersPage {
  users: AdminUserRow[];
  pagination: { page: number; pages: number; total: number };
}

const usersPage = (admin: Api, query: string) =>
  admin.get<UsersPage>(`/api/admin/dashboard/users?${query}`);

/** The key prefixes of the rows shown, as the table writes them. */
const keysShown = (page: Page) =>
  page
    .getByTestId("user-row")
    .evaluateAll((rows) => rows.map((row) => row.querySelector("td")?.textContent ?? ""));

const asShown = (users: AdminUserRow[]) => users.map((user) => `${user.key.slice(0, 6)}…`);

describe("the admin dashboard in the browser", () => {
  let superadmin: Api;
  /** Each created user's device id → key. */
  const created = new Map<string, string>();

  test.beforeEach(async ({ server }) => {
    superadmin = apiClient(server.url, server.superadminKey);
    if (created.size > 0) return;
    for (let n = 0; n < USERS; n++) {
      const deviceId = `e2e-admin-device-${String(n).padStart(2, "0")}`;
      created.set(deviceId, await freeKeyFor(server.url, deviceId));
    }
  });

  const logInAsSuperadmin = (page: Page, url: string) =>
    logInWithKey(page, url, superadmin.key ?? "");

  test("sorts on the server, pages 20 at a time and searches the page", async ({
    page,
    server,
  }) => {
    await logInAsSuperadmin(page, server.url);
    await page.goto(`${server.url}/admin`);
    await page.getByTestId("stat-users").waitFor();
    await page.getByTestId("user-row").first().waitFor();
    const total = USERS + 1;
    expect(await page.getByTestId("users-range").textContent()).toBe(`Showing 1-20 of ${total}`);
    expect(await page.getByTestId("stat-users-value").textContent()).toBe(String(total));
    await shoot(page, "admin-dashboard");

    // Default: launchCount descending, as the server answers it.
    const byLaunches = await usersPage(superadmin, "page=1&limit=20");
    expect(await keysShown(page)).toEqual(asShown(byLaunches.users));

    // A new column starts ascending; clicking it again turns it around.
    await page.getByRole("button", { name: /^Key/ }).click();
    const keyAsc = await usersPage(superadmin, "page=1&limit=20&sortField=key&sortDirection=asc");
    await expect.poll(() => keysShown(page)).toEqual(asShown(keyAsc.users));
    await page.getByRole("button", { name: /^Key/ }).click();
    const keyDesc = await usersPage(superadmin, "page=1&limit=20&sortField=key&sortDirection=desc");
    await expect.poll(() => keysShown(page)).toEqual(asShown(keyDesc.users));
    expect(asShown(keyDesc.users)).not.toEqual(asShown(keyAsc.users));

    // Page 2 holds the rest of the same order.
    await page.getByRole("button", { name: "Page 2" }).click();
    const keyDesc2 = await usersPage(
      superadmin,
      "page=2&limit=20&sortField=key&sortDirection=desc",
    );
    await expect.poll(() => keysShown(page)).toEqual(asShown(keyDesc2.users));
    expect(page.url()).toContain("page=2");
    expect(await page.getByTestId("users-range").textContent()).toBe(
      `Showing 21-${total} of ${total}`,
    );

    // Search filters the page shown, whatever the case.
    const target = keyDesc2.users.find((user) => user.deviceId);
    const search = page.getByRole("textbox", { name: "Search users" });
    await search.fill(target?.deviceId?.toUpperCase() ?? "");
    await expect.poll(() => keysShown(page)).toEqual(asShown(target ? [target] : []));
    await search.fill("SUPERADMIN");
    const superOnPage = keyDesc2.users.filter((user) => user.role === "superadmin");
    await expect.poll(() => keysShown(page)).toEqual(asShown(superOnPage));
  });

  test("a superadmin changes a role; an admin sees it read-only and is refused", async ({
    page,
    server,
  }) => {
    const deviceId = "e2e-admin-device-03";
    const promotedKey = created.get(deviceId) ?? "";
    // The page of the list (default order) that holds the user, as the server pages it.
    let onPage = 1;
    for (; ; onPage++) {
      const list = await usersPage(superadmin, `page=${onPage}&limit=20`);
      if (list.users.some((user) => user.deviceId === deviceId)) break;
      if (onPage >= list.pagination.pages) throw new Error(`${deviceId} is on no page`);
    }
    await logInAsSuperadmin(page, server.url);
    await page.goto(`${server.url}/admin?page=${onPage}`);
    await page.getByTestId("user-row").first().waitFor();
    await page.getByRole("textbox", { name: "Search users" }).fill(deviceId);
    await expect.poll(() => page.getByTestId("user-row").count()).toBe(1);
    await page.getByTestId("user-row").first().click();
    await page.waitForURL(/\/admin\/key\//);
    const promotedId = page.url().split("/").pop() ?? "";
    await page.getByRole("combobox", { name: "Role" }).selectOption("admin");
    // The toast ("Role updated to admin") lasts 2 s; the component tests read it.
    await expect
      .poll(() => page.getByRole("combobox", { name: "Role" }).inputValue())
      .toBe("admin");
    await shoot(page, "admin-user-superadmin");

    const promoted = apiClient(server.url, promotedKey);
    expect(
      (await promoted.post<{ role: string }>("/api/auth/key/validate", { key: promotedKey })).role,
    ).toBe("admin");

    // The new admin: the dashboard opens, roles are read-only, and the API refuses a change.
    const adminBrowser = await openBrowser();
    try {
      const admin = adminBrowser.page;
      await logInWithKey(admin, server.url, promotedKey);
      await admin.getByRole("link", { name: "[admin]" }).click();
      await admin.getByTestId("user-row").first().waitFor();
      const other = [...created.entries()].find(([device]) => device !== deviceId);
      const others = await usersPage(superadmin, "page=1&limit=100");
      const otherUser = others.users.find((user) => user.deviceId === other?.[0]);
      await admin.goto(`${server.url}/admin/key/${otherUser?._id}`);
      expect(await admin.getByTestId("user-role").textContent()).toBe("user");
      expect(await admin.getByRole("combobox", { name: "Role" }).count()).toBe(0);
      expect(await admin.getByRole("link", { name: "[audit log]" }).count()).toBe(0);
      await shoot(admin, "admin-user-admin");
      const refused = await promoted
        .put(`/api/admin/dashboard/users/${otherUser?._id}/role`, { role: "admin" })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiCallError);
      expect((refused as ApiCallError).status).toBe(403);
      await admin.goto(`${server.url}/admin/audit`);
      await admin.waitForURL(`${server.url}/admin`);
    } finally {
      await adminBrowser.close();
    }

    const audit = await superadmin.get<{ entries: AuditEntry[] }>("/api/admin/dashboard/audit");
    expect(audit.entries[0]).toMatchObject({
      action: "role_change",
      target: { type: "user", id: promotedId },
    });
  });

  test("a payment key view asks a reason, reveals the key on Show and is in the audit log", async ({
    page,
    server,
  }) => {
    // A user with a draft whose launch fee payment is open.
    const ownerKey = created.get("e2e-admin-device-07") ?? "";
    const owner = apiClient(server.url, ownerKey);
    const draftId = await owner.createDraft(payableDraft("Key View", "KVW"));
    const { paymentAddress } = await owner.post<{ paymentAddress: string }>(
      `/api/draft/${draftId}/payment`,
    );
    const list = await usersPage(superadmin, "page=1&limit=100");
    const ownerRow = list.users.find((user) => user.deviceId === "e2e-admin-device-07");

    await logInAsSuperadmin(page, server.url);
    await page.goto(`${server.url}/admin/key/${ownerRow?._id}`);
    const draftRow = page.getByTestId("draft-row").filter({ hasText: "KVW" });
    await draftRow.getByRole("button", { name: "[payment key]" }).click();
    const dialog = page.getByTestId("payment-key-dialog");
    expect(await dialog.getByRole("note").textContent()).toContain("logged and monitored");
    await dialog.getByRole("button", { name: "Retrieve Key" }).click();
    await dialog.getByText("Please give a reason for viewing this private key").waitFor();
    await dialog.getByRole("textbox", { name: "Reason" }).fill("e2e: refund of a late payment");
    await dialog.getByRole("button", { name: "Retrieve Key" }).click();
    const shown = dialog.getByTestId("payment-private-key");
    await shown.waitFor();
    expect(await shown.textContent()).toMatch(/^•+$/);
    expect(await dialog.getByRole("button", { name: "Copy" }).isDisabled()).toBe(true);
    await shoot(page, "admin-payment-key-masked");
    await dialog.getByRole("button", { name: "Show" }).click();
    const privateKey = ((await shown.textContent()) ?? "") as `0x${string}`;
    expect(privateKeyToAccount(privateKey).address).toBe(paymentAddress);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(privateKey);
    await dialog.getByRole("button", { name: "[close]" }).click();

    await page.goto(`${server.url}/admin`);
    await page.getByRole("link", { name: "[audit log]" }).click();
    const first = page.getByTestId("audit-row").first();
    await first.waitFor();
    expect(await first.textContent()).toContain("payment key view");
    expect(await first.textContent()).toContain("e2e: refund of a late payment");
    await shoot(page, "admin-audit");
  });
});
