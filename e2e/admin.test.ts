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

  test("sorts on the server, pages 20 at a time and searches every user on the server", async ({
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

    // The search asks the server, over every user: one on page 1 is found from page 2,
    // whatever the case, and the list starts again at page 1.
    const target = keyDesc.users.find((user) => user.deviceId);
    const search = page.getByRole("textbox", { name: "Search users" });
    await search.fill(target?.deviceId?.toUpperCase() ?? "");
    await search.press("Enter");
    await expect.poll(() => keysShown(page)).toEqual(asShown(target ? [target] : []));
    expect(await page.getByTestId("users-range").textContent()).toBe("Showing 1-1 of 1");
    expect(page.url()).not.toContain("page=2");
    // A whole key pasted in finds its user (the list knows only a key's first characters).
    const [pastedDevice, pastedKey] = [...created.entries()][5] ?? [];
    await search.fill(pastedKey ?? "");
    await search.press("Enter");
    const pasted = (await usersPage(superadmin, "page=1&limit=100")).users.find(
      (user) => user.deviceId === pastedDevice,
    );
    await expect.poll(() => keysShown(page)).toEqual(asShown(pasted ? [pasted] : []));
    await page.getByRole("button", { name: "[clear]" }).click();
    await expect.poll(() => page.getByTestId("user-row").count()).toBe(20);
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
    await page.getByRole("textbox", { name: "Search users" }).press("Enter");
    await expect.poll(() => page.getByTestId("user-row").count()).toBe(1);
    await page.getByTestId("user-row").first().click();
    await page.waitForURL(/\/admin\/key\//);
    const promotedId = page.url().split("/").pop() ?? "";
    // A role change asks first: cancelled, nothing changes.
    await page.getByRole("combobox", { name: "Role" }).selectOption("admin");
    const confirm = page.getByTestId("confirm-dialog");
    expect(await confirm.textContent()).toContain("Change this key's role from user to admin?");
    await confirm.getByRole("button", { name: "[cancel]" }).click();
    expect(await page.getByRole("combobox", { name: "Role" }).inputValue()).toBe("user");
    const unchanged = apiClient(server.url, promotedKey);
    expect(
      (await unchanged.post<{ role: string }>("/api/auth/key/validate", { key: promotedKey })).role,
    ).toBe("user");
    await page.getByRole("combobox", { name: "Role" }).selectOption("admin");
    await confirm.getByRole("button", { name: "[change role]" }).click();
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

  test("news published from the dashboard shows in the banner, edited, then hidden from it", async ({
    page,
    server,
  }) => {
    await logInAsSuperadmin(page, server.url);
    await page.goto(`${server.url}/admin`);
    const text = `Maintenance tonight ${Date.now()}.`;
    await page.getByLabel("News text").first().fill(text);
    await page.getByLabel("Label", { exact: true }).first().fill("Ops");
    await page.getByRole("button", { name: "[publish]" }).click();
    // The banner on top of every page (the dashboard's own News section is another region).
    const banner = page.locator('section[aria-label="News"]');
    await expect.poll(() => banner.textContent(), { timeout: 15_000 }).toContain(text);
    await shoot(page, "admin-news-published");

    const row = page.getByTestId("news-row").filter({ hasText: text });
    await row.getByRole("button", { name: "[edit]" }).click();
    const editing = page
      .getByTestId("news-row")
      .filter({ has: page.getByRole("button", { name: "[save]" }) });
    await editing.getByLabel("News text").fill(`${text} Moved to 03:00.`);
    await editing.getByRole("button", { name: "[save]" }).click();
    await expect
      .poll(() => banner.textContent(), { timeout: 15_000 })
      .toContain(`${text} Moved to 03:00.`);

    await page
      .getByTestId("news-row")
      .filter({ hasText: text })
      .getByRole("button", { name: "[hide]" })
      .click();
    const bannerShows = async () =>
      (await banner.count()) > 0 && ((await banner.textContent()) ?? "").includes(text);
    await expect.poll(bannerShows, { timeout: 15_000 }).toBe(false);
    // A visitor's banner no longer shows it either.
    const news = await apiClient(server.url, null).get<{ news: Array<{ content: string }> }>(
      "/api/news",
    );
    expect(news.news.map((n) => n.content)).not.toContain(`${text} Moved to 03:00.`);

    const audit = await superadmin.get<{ entries: AuditEntry[] }>("/api/admin/dashboard/audit");
    expect(audit.entries.slice(0, 3).map((entry) => entry.action)).toEqual([
      "news_hide",
      "news_edit",
      "news_publish",
    ]);
  });
});
