/// <reference lib="dom" />

import { readFileSync } from "node:fs";
import { PNL_CSV_COLUMNS } from "@bundler/shared";
import type { Page } from "playwright-core";
import { describe, expect, test } from "./support/fixtures.ts";
import { finishedRows, payableDraft } from "./support/flows.ts";

// Five bundle wallets and a developer who bought too: the P&L has a developer row.
test.override("draftInput", () => {
  const draft = payableDraft("Exit Cat", "EXIT", { wallets: 5 });
  return { ...draft, tokenInfo: { ...draft.tokenInfo, preSale: "0.01" } };
});

const SHOT = "/tmp/exit-pnl.png";

/** A P&L figure as the panel shows it ("+0.0123 BNB"), as a number of BNB. */
const figure = async (page: Page, key: string): Promise<number> => {
  const text = (await page.getByTestId(`pnl-${key}`).textContent()) ?? "";
  const match = /^([+-]?\d+\.\d{4}) BNB$/.exec(text.trim());
  if (!match?.[1]) throw new Error(`pnl-${key} reads "${text}"`);
  return Number(match[1]);
};

/**
 * Waits until the panel's figures satisfy `settled`: the page reads the P&L again once a
 * sell's transactions finish and every minute; should the ledger's per-block pass come after
 * that read, a reload reads it again rather than wait out the minute.
 */
const pnlSettles = async (page: Page, settled: () => Promise<boolean>) => {
  for (let attempt = 0; attempt < 4; attempt++) {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (await settled()) return;
      await page.waitForTimeout(500);
    }
    await page.reload();
    await page.getByTestId("pnl-exitWei").waitFor({ timeout: 30_000 });
  }
  throw new Error("the P&L panel never showed the sell");
};

describe("getting out of a launch", () => {
  test("sees the P&L, sells half of every wallet in one block with a 5% floor, sees it in the P&L and downloads the ledger", async ({
    page,
    server,
    api,
    launchedBundle,
  }) => {
    await page.goto(`${server.url}/wallets/${launchedBundle.tokenAddress}`);
    await page.getByTestId("wallet-row").first().waitFor();

    // The P&L panel: its figures, a row per wallet and the chart of the launch.
    const pnlPanel = page.getByRole("region", { name: "Profit & Loss" });
    await pnlPanel.getByTestId("pnl-exitWei").waitFor({ timeout: 30_000 });
    expect(await figure(page, "costWei")).toBeGreaterThan(0);
    await expect.poll(() => figure(page, "exitWei"), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await pnlPanel.getByTestId("pnl-costWei-usd").textContent()).toMatch(
      /^\$[\d,]+\.\d{2}$/,
    );
    expect(await pnlPanel.getByTestId("pnl-wallet-row").count()).toBe(6);
    const chart = pnlPanel.getByTestId("pnl-chart");
    await chart.waitFor({ timeout: 30_000 });
    expect(await chart.locator(".recharts-line").count()).toBe(3);
    const realizedBefore = await figure(page, "realizedWei");
    const exitBefore = await figure(page, "exitWei");
    const proceedsBefore = await figure(page, "proceedsWei");

    // Half of every wallet, 5% slippage, in a private bundle (the default route).
    await page.getByRole("button", { name: "[select all]" }).click();
    await page.getByText("5 of 5 wallets selected").waitFor();
    const sellPanel = page.getByRole("region", { name: "Sell Tokens" });
    await sellPanel.getByRole("button", { name: "50%" }).click();
    await sellPanel.getByLabel("Slippage %").fill("5");
    expect(
      await sellPanel.getByRole("radio", { name: "Private bundle (default)" }).isChecked(),
    ).toBe(true);
    await sellPanel.getByRole("button", { name: "[sell tokens]" }).click();

    const statuses = await finishedRows(page);
    expect(statuses.every((status) => status === "success")).toBe(true);
    const dialog = page.getByTestId("tx-progress");
    const sales = dialog.getByTestId("tx-row").filter({ hasText: /sell [\d,]/ });
    expect(await sales.count()).toBe(5);
    for (const route of await dialog.getByTestId("tx-route").allTextContents())
      expect(route).toBe("via private bundle");
    const floors = await sales.getByTestId("tx-floor").allTextContents();
    expect(floors).toHaveLength(5);
    for (const floor of floors) expect(floor).toMatch(/^gets at least \d+\.\d{4} BNB$/);

    // Every sale landed in the same block.
    const hashes = await sales
      .locator("a[data-tx-hash]")
      .evaluateAll((links) => links.map((link) => link.getAttribute("data-tx-hash") ?? ""));
    const { statuses: mined } = await api.post<{
      statuses: { hash: string; status: string; blockNumber: string | null }[];
    }>("/api/bundle/tx/status", { txHashes: hashes });
    expect(mined.map((entry) => entry.status)).toEqual(hashes.map(() => "success"));
    expect(new Set(mined.map((entry) => entry.blockNumber)).size).toBe(1);
    await page.getByRole("button", { name: "[close]" }).click();

    // The P&L follows: the sales are proceeds, realized P&L moved, the exit value fell.
    await pnlSettles(
      page,
      async () =>
        (await figure(page, "proceedsWei")) > proceedsBefore &&
        (await figure(page, "realizedWei")) !== realizedBefore &&
        (await figure(page, "exitWei")) < exitBefore,
    );
    expect(await figure(page, "exitWei")).toBeLessThan(exitBefore * 0.75);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: SHOT, fullPage: true });

    // The ledger as CSV: the header, and a line per sale among the rest.
    const downloading = page.waitForEvent("download");
    await pnlPanel.getByRole("button", { name: "Download CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`pnl-EXIT-${launchedBundle.tokenAddress}.csv`);
    const lines = readFileSync(await download.path(), "utf8")
      .trim()
      .split("\n");
    expect(lines[0]).toBe(PNL_CSV_COLUMNS.join(","));
    const kind = PNL_CSV_COLUMNS.indexOf("kind");
    expect(lines.filter((line) => line.split(",")[kind] === "sale").length).toBeGreaterThanOrEqual(
      5,
    );
  });
});
