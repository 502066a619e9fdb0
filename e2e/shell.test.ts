/// <reference lib="dom" />
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openBrowser, type TestBrowser } from "./support/browser.ts";
import { getFreeAccess } from "./support/flows.ts";
import { type RunningServer, startServer } from "./support/server.ts";

let server: RunningServer;
let browser: TestBrowser;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());
beforeEach(async () => {
  browser = await openBrowser();
  await getFreeAccess(browser.page, server.url);
});
afterEach(() => browser.close());

const blockNumber = async () => {
  const text = (await browser.page.getByTestId("block-number").textContent()) ?? "";
  return Number(/#(\d+)/.exec(text)?.[1] ?? Number.NaN);
};

describe("the page shell", () => {
  it("shows a live block number in the footer that keeps increasing", async () => {
    await expect.poll(blockNumber, { timeout: 10_000 }).toBeGreaterThan(0);
    const first = await blockNumber();
    await expect.poll(blockNumber, { timeout: 10_000 }).toBeGreaterThan(first);
  });

  it("gets the block over a WebSocket that the content security policy allows", async () => {
    const { page } = browser;
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

  it("shows the not-found page for an unknown path", async () => {
    await browser.page.goto(`${server.url}/no/such/page`);
    await browser.page.getByText("Nothing to see here...").waitFor();
    await browser.page.getByRole("link", { name: "[go to home]" }).click();
    await browser.page.waitForURL(`${server.url}/`);
  });

  it("marks [bundler] active on /create and [other tools] on /tools/bumper", async () => {
    const { page } = browser;
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

  it("remembers a dismissed news item across reloads", async () => {
    const { page } = browser;
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

  it("collapses the menu behind a toggle on a narrow screen", async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 400, height: 800 });
    const link = page.getByRole("link", { name: "[my drafts]" });
    expect(await link.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Toggle menu" }).click();
    await link.click();
    await page.waitForURL(`${server.url}/drafts`);
  });

  it("loads with no console errors and no content security policy violations", async () => {
    await browser.page.reload();
    await expect.poll(blockNumber, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(browser.errors).toEqual([]);
  });
});
