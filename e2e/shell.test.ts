/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { describe, expect, logIn, test } from "./support/fixtures.ts";

// Every test here starts logged in with a free key.
test.beforeEach(logIn);

const blockNumber = (page: Page) => async () => {
  const text = (await page.getByTestId("block-number").textContent()) ?? "";
  return Number(/#(\d+)/.exec(text)?.[1] ?? Number.NaN);
};

describe("the page shell", () => {
  test("shows a live block number in the footer that keeps increasing", async ({ page }) => {
    await expect.poll(blockNumber(page), { timeout: 10_000 }).toBeGreaterThan(0);
    const first = await blockNumber(page)();
    await expect.poll(blockNumber(page), { timeout: 10_000 }).toBeGreaterThan(first);
  });

  test("gets the block over a WebSocket that the content security policy allows", async ({
    page,
    browser,
  }) => {
    const frames: string[] = [];
    page.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => frames.push(String(payload))),
    );
    await page.reload();
    await expect
      .poll(() => frames.some((frame) => frame.includes('"block"')), { timeout: 10_000 })
      .toBe(true);
    expect(browser.errors.filter((error) => /Content Security Policy/i.test(error))).toEqual([]);
  });

  test("keeps the cursor still for a visitor who asked for less motion", async ({ page }) => {
    // The test browser asks for reduced motion (support/browser.ts); a blinking cursor would
    // repaint the page for as long as it stays open.
    const cursor = page.locator("span.animate-blink").first();
    await cursor.waitFor();
    expect(await cursor.evaluate((node) => getComputedStyle(node).animationIterationCount)).toBe(
      "1",
    );
    await page.emulateMedia({ reducedMotion: "no-preference" });
    expect(await cursor.evaluate((node) => getComputedStyle(node).animationIterationCount)).toBe(
      "infinite",
    );
  });

  test("shows the not-found page for an unknown path", async ({ page, server }) => {
    await page.goto(`${server.url}/no/such/page`);
    await page.getByText("Nothing to see here...").waitFor();
    await page.getByRole("link", { name: "[go to home]" }).click();
    await page.waitForURL(`${server.url}/`);
  });

  test("marks [bundler] active on /create and [other tools] on /tools/bumper", async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/create`);
    expect(await page.getByRole("link", { name: "[bundler]" }).getAttribute("aria-current")).toBe(
      "page",
    );
    await page.goto(`${server.url}/tools/bumper`);
    expect(
      await page.getByRole("link", { name: "[other tools]" }).getAttribute("aria-current"),
    ).toBe("page");
    expect(
      await page.getByRole("link", { name: "[bundler]" }).getAttribute("aria-current"),
    ).toBeNull();
  });

  test("remembers a dismissed news item across reloads", async ({ page }) => {
    const news = page.getByText("You are on the local chain");
    await news.waitFor();
    await page.getByRole("button", { name: "Dismiss news" }).first().click();
    await news.waitFor({ state: "hidden" });
    await page.reload();
    await page.getByRole("link", { name: "[bundler]" }).waitFor();
    await page.waitForTimeout(500);
    expect(await news.count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("dismissedNewsIds"))).toContain(
      "local-chain",
    );
  });

  test("collapses the menu behind a toggle on a narrow screen", async ({ page, server }) => {
    await page.setViewportSize({ width: 400, height: 800 });
    const link = page.getByRole("link", { name: "[my drafts]" });
    expect(await link.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Toggle menu" }).click();
    await link.click();
    await page.waitForURL(`${server.url}/drafts`);
  });

  test("loads with no console errors and no content security policy violations", async ({
    page,
    browser,
  }) => {
    await page.reload();
    await expect.poll(blockNumber(page), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(browser.errors).toEqual([]);
  });
});
