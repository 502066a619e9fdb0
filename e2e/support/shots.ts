import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";

/** Where the browser tests leave their screenshots, one folder per area. */
export const shooter = (folder: string) => async (page: Page, name: string) => {
  mkdirSync(folder, { recursive: true });
  // From the top: scrolled, the sticky menu would be drawn over the middle of a full-page shot.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
};
