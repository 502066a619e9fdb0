import { freshAddress, gridAddresses, openWithRows } from "./support/disperser.ts";
import { describe, expect, logIn, test } from "./support/fixtures.ts";

// What the disperser keeps of a dispersal: the grid cleared once it paid, the list of past
// dispersals, the transaction log across a reload.
describe("after a dispersal", () => {
  test.beforeEach(logIn);

  test("clears the grid once the dispersal completed and lists it among the past ones", async ({
    page,
    server,
  }) => {
    const rows: [string, string][] = [
      [freshAddress(), "0.1"],
      [freshAddress(), "0.2"],
    ];
    await openWithRows(page, server.url, rows);
    await page.getByRole("button", { name: "[recommend]" }).click();
    await page.getByRole("switch", { name: "Anti Bubblemaps" }).click();
    await page.getByRole("button", { name: "[create dispersal]" }).click();
    const dialog = page.getByTestId("dispersal-dialog");
    await dialog.getByRole("button", { name: "[fund from faucet]" }).click();
    await page.getByText("Dispersal completed!").waitFor({ timeout: 60_000 });

    expect(await gridAddresses(page)).toEqual([""]);
    expect(await page.getByTestId("summary-wallets").textContent()).toBe("0");
    // A second click finds nothing to pay.
    await page.getByRole("button", { name: "[create dispersal]" }).click();
    await page.getByText("Please add some wallets.").waitFor();

    const history = page.getByRole("table", { name: "Past dispersals" });
    const newest = history.getByTestId("dispersal-history-row").first();
    await newest.getByText("Completed").waitFor();
    expect(await newest.locator("td").allTextContents()).toEqual([
      expect.any(String),
      "Completed",
      "2",
      "0.3200 BNB",
    ]);
  });

  test("keeps the log's earlier lines after a reload mid-dispersal", async ({ page, server }) => {
    await openWithRows(page, server.url, [
      [freshAddress(), "0.1"],
      [freshAddress(), "0.2"],
    ]);
    await page.getByRole("button", { name: "[recommend]" }).click();
    await page.getByRole("button", { name: "[create dispersal]" }).click();
    const dialog = page.getByTestId("dispersal-dialog");
    await dialog.getByRole("button", { name: "[fund from faucet]" }).click();
    const log = dialog.getByRole("list", { name: "Transaction Log" });
    const messages = async () =>
      (await log.getByTestId("terminal-line").allTextContents()).map((line) =>
        line.replace(/^\[\d\d:\d\d:\d\d\]/, ""),
      );
    await expect
      .poll(async () => (await messages()).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(3);
    const before = await messages();
    expect(before[0]).toMatch(/^Received \d+\.\d{4} BNB from 0x[0-9a-fA-F]{40}; sending/);

    await page.reload();
    // Only the server's record holds the funding line: no live line says it again.
    await log.getByTestId("terminal-line").filter({ hasText: "Received" }).waitFor();
    const after = await messages();
    // Transfers mined in one block may come back in another order.
    expect(after[0]).toBe(before[0]);
    expect(after).toEqual(expect.arrayContaining(before));
    await page.getByText("Dispersal completed!").waitFor({ timeout: 90_000 });
  });
});
