/// <reference lib="dom" />
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openBrowser, type TestBrowser } from "./support/browser.ts";
import { continueToApp, getFreeAccess as freeAccess } from "./support/flows.ts";
import { type RunningServer, startServer } from "./support/server.ts";

let server: RunningServer;
let browser: TestBrowser;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());
beforeEach(async () => {
  browser = await openBrowser();
});
afterEach(() => browser.close());

const modal = () => browser.page.getByTestId("auth-modal");

const getFreeAccess = () => freeAccess(browser.page, server.url);

const importKey = async (key: string) => {
  const { page } = browser;
  await page.getByRole("button", { name: "[import existing key]" }).click();
  await page.getByLabel("Access key").fill(key);
  await page.getByRole("button", { name: "Import Key", exact: true }).click();
};

describe("authentication in the browser", () => {
  it("shows the modal on a first visit", async () => {
    await browser.page.goto(server.url);
    await expect.poll(() => modal().isVisible()).toBe(true);
    expect(await modal().getByRole("button", { name: "Get Free Access" }).isVisible()).toBe(true);
  });

  it("shows a free key with a copy button and enters the app", async () => {
    const { page } = browser;
    await page.goto(server.url);
    await page.getByRole("button", { name: "Get Free Access" }).click();
    const key = await page.getByTestId("generated-key").textContent();
    expect(key).toMatch(/^lbk_[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Copy access key" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await continueToApp(page);
    expect(await page.getByRole("link", { name: "[bundler]" }).isVisible()).toBe(true);
  });

  it("continues to the app by itself two seconds after the key is shown", async () => {
    const { page } = browser;
    await page.goto(server.url);
    await page.getByRole("button", { name: "Get Free Access" }).click();
    await page.getByTestId("generated-key").waitFor();
    await modal().waitFor({ state: "hidden", timeout: 5000 });
  });

  it("stays logged in after a reload", async () => {
    await getFreeAccess();
    await browser.page.reload();
    await browser.page.getByRole("link", { name: "[bundler]" }).waitFor();
    await browser.page.waitForTimeout(500);
    expect(await modal().isVisible()).toBe(false);
  });

  it("keeps the key encrypted, never in plain local storage", async () => {
    const key = await getFreeAccess();
    const storage = await browser.page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(storage).not.toContain(key);
  });

  it("imports a valid key", async () => {
    const key = server.superadminKey;
    await browser.page.goto(server.url);
    await importKey(key ?? "");
    await modal().waitFor({ state: "hidden" });
    await browser.page.getByText("Access key validated successfully!").waitFor();
  });

  it("refuses an invalid key and a blank one with the spec's messages", async () => {
    const { page } = browser;
    await page.goto(server.url);
    await page.getByRole("button", { name: "[import existing key]" }).click();
    await page.getByRole("button", { name: "Import Key", exact: true }).click();
    await page.getByText("Please enter a valid access key").waitFor();
    await page.getByLabel("Access key").fill("lbk_this-is-not-a-key");
    await page.getByRole("button", { name: "Import Key", exact: true }).click();
    await page.getByText("Invalid access key").waitFor();
    expect(await modal().isVisible()).toBe(true);
  });

  it("refuses a second free key for the same device", async () => {
    const { page } = browser;
    await getFreeAccess();
    await page.getByRole("button", { name: "[logout]" }).click();
    await page.getByRole("button", { name: "Get Free Access" }).click();
    await page.getByText("Failed to generate access key").waitFor();
  });

  it("logs out and shows the modal again", async () => {
    await getFreeAccess();
    await browser.page.getByRole("button", { name: "[logout]" }).click();
    await modal().waitFor();
    await browser.page.reload();
    await modal().waitFor();
  });

  it("hides the admin link from a user and shows it to a superadmin", async () => {
    const { page } = browser;
    await getFreeAccess();
    expect(await page.getByRole("link", { name: "[admin]" }).count()).toBe(0);
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole("button", { name: "[logout]" }).click();
    await importKey(server.superadminKey ?? "");
    await modal().waitFor({ state: "hidden" });
    await page.getByRole("link", { name: "[admin]" }).click();
    await page.waitForURL(`${server.url}/admin`);
  });
});

describe("logged out", () => {
  it.each(["/drafts", "/wallets", "/referral", "/tools/bumper"])(
    "a visit to %s shows the blocking modal and not the page",
    async (route) => {
      const { page } = browser;
      await page.goto(`${server.url}${route}`);
      await modal().getByRole("button", { name: "Get Free Access" }).waitFor();
      await page.getByText("No auth key found").waitFor();
      expect(page.url()).toBe(`${server.url}${route}`);
    },
  );

  it("a visit to /admin is sent to /", async () => {
    const { page } = browser;
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/`);
    await modal().waitFor();
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
  const validations = () => {
    let count = 0;
    browser.page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/key/validate")) count++;
    });
    return () => count;
  };

  it("is trusted without a call within 24 hours", async () => {
    await getFreeAccess();
    const count = validations();
    await browser.page.reload();
    await browser.page.getByRole("button", { name: "[logout]" }).waitFor();
    expect(count()).toBe(0);
  });

  it("is validated again after 24 hours and kept when still valid", async () => {
    await getFreeAccess();
    const count = validations();
    await browser.page.clock.install({ time: Date.now() + DAY_AND_AN_HOUR });
    await browser.page.reload();
    // The menu renders while the key is being checked; [logout] only once it is accepted.
    await browser.page.getByRole("button", { name: "[logout]" }).waitFor();
    expect(count()).toBe(1);
    expect(await modal().isVisible()).toBe(false);
  });

  it("returns the user to the modal when the server no longer knows it", async () => {
    const own = await startServer();
    await browser.page.goto(own.url);
    await browser.page.getByRole("button", { name: "Get Free Access" }).click();
    await continueToApp(browser.page);
    // The same address now answers from an empty database: the key is revoked.
    await own.stop();
    const fresh = await startServer({ port: own.port });
    try {
      await browser.page.clock.install({ time: Date.now() + DAY_AND_AN_HOUR });
      await browser.page.reload();
      await modal().waitFor({ timeout: 60_000 });
    } finally {
      await fresh.stop();
    }
  });

  it("is dropped as soon as the live connection is refused", async () => {
    const own = await startServer();
    await browser.page.goto(own.url);
    await browser.page.getByRole("button", { name: "Get Free Access" }).click();
    await continueToApp(browser.page);
    await own.stop();
    const fresh = await startServer({ port: own.port });
    try {
      // No reload: the socket reconnects, its handshake is refused, and the modal returns.
      await modal().waitFor({ timeout: 60_000 });
    } finally {
      await fresh.stop();
    }
  });

  it("is kept while the server is offline, and lets the user in once it is back", async () => {
    const { page } = browser;
    const dataDir = mkdtempSync(path.join(tmpdir(), "bundler-e2e-offline-"));
    const own = await startServer({ dataDir });
    let back: RunningServer | undefined;
    try {
      await page.goto(own.url);
      await page.getByRole("button", { name: "Get Free Access" }).click();
      await continueToApp(page);
      await own.stop();

      await serveAppFilesOnly(page, own.url);
      const count = validations();
      await page.clock.install({ time: Date.now() + DAY_AND_AN_HOUR });
      await page.reload();
      const offline = modal().getByText("Connection Error - The server is currently offline");
      await offline.waitFor();
      await modal().getByText("Please try again later or contact support.").waitFor();
      expect(await modal().getByRole("button", { name: "Get Free Access" }).count()).toBe(0);
      const asked = count();
      await modal().getByRole("button", { name: "[retry]" }).click();
      await expect.poll(count).toBeGreaterThan(asked);
      await modal().getByRole("button", { name: "[retry]" }).waitFor();
      expect(await offline.isVisible()).toBe(true);

      // Same port, same data: the automatic retry finds the key valid.
      back = await startServer({ dataDir, port: own.port });
      await page.unroute(`${own.url}/**`);
      await page.getByRole("button", { name: "[logout]" }).waitFor({ timeout: 30_000 });
      expect(await modal().isVisible()).toBe(false);
    } finally {
      await back?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
