/// <reference lib="dom" />
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { apiClient } from "./support/api.ts";
import { describe, expect, test } from "./support/fixtures.ts";
import { continueToApp } from "./support/flows.ts";
import { type RunningServer, startServer } from "./support/server.ts";

const modal = (page: Page) => page.getByTestId("auth-modal");

/** [logout], confirmed in its dialog. */
const logOut = async (page: Page) => {
  await page.getByRole("button", { name: "[logout]" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "[logout]" }).click();
};

/**
 * Turns `key` off as an admin does on the admin page: from then on the server no longer lets
 * it in, as when it no longer knows it (both answer "Invalid access key").
 */
const turnOff = async (server: RunningServer, key: string) => {
  const admin = apiClient(server.url, server.superadminKey);
  const { users } = await admin.get<{ users: Array<{ _id: string }> }>(
    `/api/admin/dashboard/users?search=${encodeURIComponent(key)}`,
  );
  expect(users).toHaveLength(1);
  await admin.put(`/api/admin/dashboard/users/${users[0]?._id}/active`, { isActive: false });
};

const importKey = async (page: Page, key: string) => {
  await page.getByRole("button", { name: "[import existing key]" }).click();
  await page.getByLabel("Access key").fill(key);
  await page.getByRole("button", { name: "Import Key", exact: true }).click();
};

describe("authentication in the browser", () => {
  test("shows the modal on a first visit", async ({ page, server }) => {
    await page.goto(server.url);
    await expect.poll(() => modal(page).isVisible()).toBe(true);
    expect(await modal(page).getByRole("button", { name: "Get Free Access" }).isVisible()).toBe(
      true,
    );
  });

  test("shows a free key with a copy button and enters the app", async ({ page, server }) => {
    await page.goto(server.url);
    await page.getByRole("button", { name: "Get Free Access" }).click();
    const key = await page.getByTestId("generated-key").textContent();
    expect(key).toMatch(/^lbk_[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Copy access key" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await continueToApp(page);
    expect(await page.getByRole("link", { name: "[bundler]" }).isVisible()).toBe(true);
  });

  test("stays logged in after a reload", async ({ page, key: _key }) => {
    await page.reload();
    await page.getByRole("link", { name: "[bundler]" }).waitFor();
    await page.waitForTimeout(500);
    expect(await modal(page).isVisible()).toBe(false);
  });

  test("keeps the key encrypted, never in plain local storage", async ({ page, key }) => {
    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(storage).not.toContain(key);
  });

  test("imports a valid key", async ({ page, server }) => {
    const key = server.superadminKey;
    await page.goto(server.url);
    await importKey(page, key ?? "");
    await modal(page).waitFor({ state: "hidden" });
    await page.getByText("Access key validated successfully!").waitFor();
  });

  test("refuses an invalid key and a blank one with the spec's messages", async ({
    page,
    server,
  }) => {
    await page.goto(server.url);
    await page.getByRole("button", { name: "[import existing key]" }).click();
    await page.getByRole("button", { name: "Import Key", exact: true }).click();
    await page.getByText("Please enter a valid access key").waitFor();
    await page.getByLabel("Access key").fill("lbk_this-is-not-a-key");
    await page.getByRole("button", { name: "Import Key", exact: true }).click();
    await page.getByText("Invalid access key").waitFor();
    expect(await modal(page).isVisible()).toBe(true);
  });

  test("refuses a second free key for the same device", async ({ page, key: _key }) => {
    await logOut(page);
    await page.getByRole("button", { name: "Get Free Access" }).click();
    await page.getByTestId("free-key-refused").getByText("Failed to generate access key").waitFor();
  });

  test("logs out and shows the modal again", async ({ page, key: _key }) => {
    await logOut(page);
    await modal(page).waitFor();
    await page.reload();
    await modal(page).waitFor();
  });

  test("hides the admin link from a user and shows it to a superadmin", async ({
    page,
    server,
    key: _key,
  }) => {
    expect(await page.getByRole("link", { name: "[admin]" }).count()).toBe(0);
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/`);
    await logOut(page);
    await importKey(page, server.superadminKey ?? "");
    await modal(page).waitFor({ state: "hidden" });
    await page.getByRole("link", { name: "[admin]" }).click();
    await page.waitForURL(`${server.url}/admin`);
  });
});

describe("logged out", () => {
  test.for([
    ["/drafts", "No auth key found"],
    ["/wallets", "No auth key found"],
    ["/referral", "No auth key found"],
    // The bumper says it in its own words (SPEC §2).
    ["/tools/bumper", "Authentication required. Please log in to use the Bumper tool."],
  ])(
    "a visit to %s shows the blocking modal and not the page",
    async ([route, text], { page, server }) => {
      await page.goto(`${server.url}${route}`);
      await modal(page).getByRole("button", { name: "Get Free Access" }).waitFor();
      await page.getByText(text as string).waitFor();
      expect(page.url()).toBe(`${server.url}${route}`);
    },
  );

  test("a visit to /admin is sent to /", async ({ page, server }) => {
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/`);
    await modal(page).waitFor();
  });
});

const webDist = path.resolve(import.meta.dirname, "../apps/web/dist");

/**
 * While the server is down, the browser still gets the app's files (as from its cache), so the
 * app can start; every /api and socket.io request goes to the closed port and is refused.
 */
const serveAppFilesOnly = (page: Page, origin: string) =>
  page.route(`${origin}/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname.startsWith("/api/") || pathname.startsWith("/socket.io/")) {
      return route.continue();
    }
    const file = path.join(webDist, pathname);
    const isFile = file.startsWith(webDist) && existsSync(file) && statSync(file).isFile();
    return route.fulfill({ path: isFile ? file : path.join(webDist, "index.html") });
  });

describe("a stored key", () => {
  const DAY_AND_AN_HOUR = 25 * 60 * 60 * 1000;
  const validations = (page: Page) => {
    let count = 0;
    page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/key/validate")) count++;
    });
    return () => count;
  };

  test("is trusted without a call within 24 hours", async ({ page, key: _key }) => {
    const count = validations(page);
    await page.reload();
    await page.getByRole("button", { name: "[logout]" }).waitFor();
    expect(count()).toBe(0);
  });

  test("is validated again after 24 hours and kept when still valid", async ({
    page,
    key: _key,
  }) => {
    const count = validations(page);
    await page.clock.install({ time: Date.now() + DAY_AND_AN_HOUR });
    await page.reload();
    // The menu renders while the key is being checked; [logout] only once it is accepted.
    await page.getByRole("button", { name: "[logout]" }).waitFor();
    expect(count()).toBe(1);
    expect(await modal(page).isVisible()).toBe(false);
  });

  test("returns the user to the modal when the server no longer accepts it", async ({
    page,
    server,
    key,
  }) => {
    // The page is gone before the key is turned off: only the next day's check can tell.
    await page.goto("about:blank");
    await turnOff(server, key);
    const count = validations(page);
    await page.clock.install({ time: Date.now() + DAY_AND_AN_HOUR });
    await page.goto(server.url);
    await modal(page).getByRole("button", { name: "Get Free Access" }).waitFor();
    expect(count()).toBe(1);
  });

  test("is dropped as soon as the live connection is refused", async ({ page, server, key }) => {
    await turnOff(server, key);
    // No reload: the server drops the key's connection, the socket's next handshake is
    // refused, and the modal returns.
    await modal(page).getByRole("button", { name: "Get Free Access" }).waitFor();
  });

  test("is kept while the server is offline, and lets the user in once it is back", async ({
    page,
  }) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bundler-e2e-offline-"));
    const own = await startServer({ dataDir, fromTemplate: true });
    let back: RunningServer | undefined;
    try {
      await page.goto(own.url);
      await page.getByRole("button", { name: "Get Free Access" }).click();
      await continueToApp(page);
      await own.stop();

      await serveAppFilesOnly(page, own.url);
      const count = validations(page);
      await page.clock.install({ time: Date.now() + DAY_AND_AN_HOUR });
      await page.reload();
      const offline = modal(page).getByText("Connection Error - The server is currently offline");
      await offline.waitFor();
      await modal(page).getByText("Please try again later or contact support.").waitFor();
      expect(await modal(page).getByRole("button", { name: "Get Free Access" }).count()).toBe(0);
      const asked = count();
      await modal(page).getByRole("button", { name: "[retry]" }).click();
      await expect.poll(count).toBeGreaterThan(asked);
      await modal(page).getByRole("button", { name: "[retry]" }).waitFor();
      expect(await offline.isVisible()).toBe(true);

      // Same port, same data: the automatic retry finds the key valid.
      back = await startServer({ dataDir, port: own.port });
      await page.unroute(`${own.url}/**`);
      await page.getByRole("button", { name: "[logout]" }).waitFor({ timeout: 30_000 });
      expect(await modal(page).isVisible()).toBe(false);
    } finally {
      // Both stopped before their data goes: a server whose data dir is deleted under it
      // spins in its embedded database and never exits.
      await back?.stop();
      await own.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
