import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { HEADLESS_SHELL } from "./chromium-path.mjs";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Debian's Chromium headless shell (chromium-path.mjs), started once per test file (a start costs a second or two): each visitor
 * is a context of its own in it (`openBrowser`).
 */
let running: Promise<Browser> | undefined;
const chromiumOnce = (): Promise<Browser> => {
  running ??= chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? HEADLESS_SHELL,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  return running;
};

/** Closes the file's Chromium (the e2e fixtures do, after the file's last test). */
export const closeChromium = async (): Promise<void> => {
  const browser = running;
  running = undefined;
  await (await browser)?.close();
};

/**
 * A first-time visitor: a fresh browser context (its own cookies, storage, IndexedDB and
 * cache, as a fresh profile has) in the file's Chromium.
 */
export const openBrowser = async (): Promise<TestBrowser> => {
  const context = await (await chromiumOnce()).newContext({
    viewport: { width: 1280, height: 800 },
    permissions: ["clipboard-read", "clipboard-write"],
    // No animation runs (index.css honours the setting): an idle page with the blinking cursor
    // kept half a core busy, which two test files at a time took from their servers.
    reducedMotion: "reduce",
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, errors, close: () => context.close() };
};
