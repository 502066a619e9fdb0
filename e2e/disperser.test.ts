/// <reference lib="dom" />
import { parseEther } from "viem";
import {
  addressInputs,
  balancesOf,
  freshAddress,
  openWithRows,
  storedDispersalId,
} from "./support/disperser.ts";
import { describe, expect, logIn, test } from "./support/fixtures.ts";

const HASH = /0x[0-9a-fA-F]{64}/;

describe("the disperser page, logged out", () => {
  test("asks an anonymous visitor to log in", async ({ page, server }) => {
    await page.goto(`${server.url}/disperser`);
    await page.getByText("Log in to use this page.").waitFor();
    expect(await page.getByRole("button", { name: "[create dispersal]" }).count()).toBe(0);
  });
});

describe("the disperser page", () => {
  test.beforeEach(logIn);

  test("fills the grid from an uploaded CSV and sums it with the buffer", async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/disperser`);
    const [a, b, c] = [freshAddress(), freshAddress(), freshAddress()];
    const csv = ["address,amount", `${a},0.1`, "0x1234,5", `${b}, 0.25`, `${c},0.05`].join("\n");

    await page.getByLabel("Wallet CSV or TXT file").setInputFiles({
      name: "wallets.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csv),
    });

    await page.getByText("Loaded 3 wallets from wallets.csv").waitFor();
    expect(
      await addressInputs(page).evaluateAll((inputs) =>
        inputs.map((i) => (i as HTMLInputElement).value),
      ),
    ).toEqual([a, b, c]);
    expect(await page.getByTestId("summary-wallets").textContent()).toBe("3");
    expect(await page.getByTestId("summary-total").textContent()).toBe("0.4000 BNB");

    await page.getByRole("button", { name: "[recommend]" }).click();
    expect(await page.getByLabel("Balance buffer").inputValue()).toBe("0.01");
    expect(await page.getByTestId("summary-total").textContent()).toBe("0.4300 BNB");
  });

  test("refuses a file that is neither CSV nor TXT", async ({ page, server }) => {
    await page.goto(`${server.url}/disperser`);
    await page.getByLabel("Wallet CSV or TXT file").setInputFiles({
      name: "wallets.json",
      mimeType: "application/json",
      buffer: Buffer.from("[]"),
    });
    await page.getByText("Please upload a CSV or TXT file").waitFor();
  });

  test("validates the buffer, then the wallets, then the amounts", async ({ page, server }) => {
    await openWithRows(page, server.url, [[freshAddress(), ""]]);
    const create = page.getByRole("button", { name: "[create dispersal]" });

    await create.click();
    await page
      .getByText("Please add a buffer (we recommend 0.01 BNB to cover future transactions)")
      .waitFor();

    await page.getByRole("button", { name: "[recommend]" }).click();
    await create.click();
    await page.getByText("Please add some amounts.").waitFor();

    await page.getByLabel("Address 1", { exact: true }).fill("0xnot-an-address");
    await create.click();
    await page.getByText("Please add some wallets.").waitFor();
    expect(await storedDispersalId(page)).toBeNull();
  });
});

describe("the hand-off from the launch page", () => {
  test.beforeEach(logIn);
  test("imports the bundler wallets once and removes autoImport from the address", async ({
    page,
    server,
  }) => {
    const wallets = [
      { address: freshAddress(), buyValue: "0.2" },
      { address: freshAddress(), buyValue: "0.15" },
    ];
    await page.evaluate(
      (value) => localStorage.setItem("bundler-wallets", value),
      JSON.stringify(wallets),
    );

    await page.goto(`${server.url}/disperser?autoImport=true`);

    await page.waitForURL(`${server.url}/disperser`);
    await page.getByText("Imported 2 bundler wallets").waitFor();
    expect(
      await addressInputs(page).evaluateAll((inputs) =>
        inputs.map((i) => (i as HTMLInputElement).value),
      ),
    ).toEqual(wallets.map((w) => w.address));
    expect(await page.getByLabel("Amount 2", { exact: true }).inputValue()).toBe("0.15");
    expect(await page.getByTestId("summary-total").textContent()).toBe("0.3500 BNB");
    await page.getByRole("button", { name: "Import Bundler Wallets" }).waitFor();

    // Without the parameter a reload starts from an empty grid again.
    await page.reload();
    await page.getByRole("button", { name: "Import Bundler Wallets" }).waitFor();
    expect(
      await addressInputs(page).evaluateAll((inputs) =>
        inputs.map((i) => (i as HTMLInputElement).value),
      ),
    ).toEqual([""]);
  });

  test("takes the launch page's bundle wallets and buy values through Missing Funds", async ({
    page,
    server,
  }) => {
    await page.getByLabel("Number of wallets").fill("3");
    await page
      .getByRole("group", { name: "Buy unit" })
      .getByRole("button", { name: "BNB" })
      .click();
    await page.getByLabel("Min buy").fill("0.01");
    await page.getByLabel("Max buy").fill("0.02");
    await page.getByRole("button", { name: "Generate Wallets" }).click();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download Wallets" }).click();
    await download;
    await page.getByRole("button", { name: "[close]" }).click();
    // The funding rows come with the server's plan of the launch.
    const fundButtons = page.locator('button[aria-label^="Fund 0x"]');
    await fundButtons.nth(2).waitFor();
    const launchWallets = await fundButtons.evaluateAll((buttons) =>
      buttons.map((b) => (b.getAttribute("aria-label") ?? "").split(" ")[1]),
    );

    await page.getByRole("button", { name: "Missing Funds (Go to Disperser)" }).click();

    await page.waitForURL(`${server.url}/disperser`);
    await page.getByText("Imported 3 bundler wallets").waitFor();
    const addresses = await addressInputs(page).evaluateAll((inputs) =>
      inputs.map((i) => (i as HTMLInputElement).value),
    );
    expect(addresses).toHaveLength(3);
    for (const address of addresses) expect(launchWallets).toContain(address);
    for (const n of [1, 2, 3]) {
      const amount = Number(await page.getByLabel(`Amount ${n}`, { exact: true }).inputValue());
      expect(amount).toBeGreaterThanOrEqual(0.01);
      expect(amount).toBeLessThanOrEqual(0.02);
    }
  });

  test("hides the import button when no bundler wallets were handed over", async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/disperser?autoImport=true`);
    await page.waitForURL(`${server.url}/disperser`);
    await page.getByRole("button", { name: "Add Row" }).waitFor();
    expect(await page.getByRole("button", { name: "Import Bundler Wallets" }).count()).toBe(0);
  });

  test("says the wallet data cannot be decrypted when the stored wallets are corrupt", async ({
    page,
    server,
  }) => {
    await page.evaluate(() => localStorage.setItem("bundler-wallets", "{not json"));
    await page.goto(`${server.url}/disperser?autoImport=true`);
    await page.getByText("Failed to decrypt wallet data").waitFor();
    await page.waitForURL(`${server.url}/disperser`);
  });
});

describe("a dispersal", () => {
  test.beforeEach(logIn);
  test("routes through anti bubblemaps chains once funded from the faucet and pays every wallet exactly", async ({
    page,
    server,
    browser,
    api,
  }) => {
    const rows: [string, string][] = [
      [freshAddress(), "0.1"],
      [freshAddress(), "0.25"],
      [freshAddress(), "0.05"],
    ];
    await openWithRows(page, server.url, rows);
    await page.getByRole("button", { name: "[recommend]" }).click();
    expect(
      await page.getByRole("switch", { name: "Anti Bubblemaps" }).getAttribute("aria-checked"),
    ).toBe("true");

    await page.getByRole("button", { name: "[create dispersal]" }).click();

    const dialog = page.getByTestId("dispersal-dialog");
    await dialog.getByRole("heading", { name: "Dispersal", exact: true }).waitFor();
    await dialog.getByText("Since dispersals are connection-less").waitFor();
    const receiver = (await dialog.getByTestId("dispersal-receiver").textContent()) ?? "";
    expect(receiver).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await storedDispersalId(page)).toBe(receiver);
    expect(await dialog.getByTestId("dispersal-expiry").textContent()).toBe("30 minutes");
    await dialog.getByRole("img", { name: "Receiver address QR code" }).waitFor();
    // The receiver asks for the amounts plus buffers, and the gas of every transfer on top.
    const amount = (await dialog.getByTestId("dispersal-amount").textContent()) ?? "";
    expect(parseEther(amount)).toBeGreaterThan(parseEther("0.43"));

    await dialog.getByRole("button", { name: "Copy receiver address" }).click();
    await page.getByText("Copied address to clipboard").waitFor();

    await dialog.getByRole("button", { name: "[fund from faucet]" }).click();
    await page.getByText("Dispersal is being sent, please wait...").waitFor({ timeout: 30_000 });
    await dialog.getByText("Processing Anti Bubblemaps Dispersal").waitFor({ timeout: 30_000 });
    expect(await dialog.getByTestId("chain-card").count()).toBe(3);
    await dialog.getByTestId("chains-completed").getByText("/3").waitFor();
    await dialog
      .getByText(/Hop [1-9]\/9/)
      .first()
      .waitFor({ timeout: 30_000 });

    // The local chain has no explorer: hashes in the log link to the app's own transaction page.
    const log = dialog.getByRole("list", { name: "Transaction Log" });
    const link = log.locator("a[data-tx-hash]").first();
    await link.waitFor();
    const hash = (await link.textContent()) ?? "";
    expect(hash).toMatch(HASH);
    expect(await link.getAttribute("href")).toBe(`/tx/${hash}`);
    // Read before leaving the page: at four blocks a second the dispersal may complete (and its
    // dialog close) while the transaction's page is open.
    expect(await log.getByTestId("terminal-line").first().textContent()).toMatch(
      /^\[\d\d:\d\d:\d\d\]/,
    );
    const txPage = await page.context().newPage();
    await txPage.goto(`${server.url}/tx/${hash}`);
    await txPage.getByTestId("tx-status").getByText("success").waitFor();
    await txPage.close();

    // Completed (its toast may be gone already): the dialog closes and the id is forgotten.
    await dialog.waitFor({ state: "hidden", timeout: 90_000 });
    expect(await storedDispersalId(page)).toBeNull();
    await page.getByRole("button", { name: "[create dispersal]" }).waitFor();

    const balances = await balancesOf(
      api,
      rows.map(([address]) => address),
    );
    expect(rows.map(([address]) => balances.get(address.toLowerCase()))).toEqual([
      "0.11",
      "0.26",
      "0.06",
    ]);
    expect(browser.errors).toEqual([]);
  });

  test("sends directly without anti bubblemaps", async ({ page, server, api }) => {
    const rows: [string, string][] = [
      [freshAddress(), "0.3"],
      [freshAddress(), "0.02"],
    ];
    await openWithRows(page, server.url, rows);
    await page.getByLabel("Balance buffer").fill("0.005");
    await page.getByRole("switch", { name: "Anti Bubblemaps" }).click();

    await page.getByRole("button", { name: "[create dispersal]" }).click();
    const dialog = page.getByTestId("dispersal-dialog");
    await dialog.getByRole("button", { name: "[fund from faucet]" }).click();

    await page.getByText("Dispersal completed!").waitFor({ timeout: 60_000 });
    await dialog.waitFor({ state: "hidden" });
    const balances = await balancesOf(
      api,
      rows.map(([address]) => address),
    );
    expect(rows.map(([address]) => balances.get(address.toLowerCase()))).toEqual([
      "0.305",
      "0.025",
    ]);
  });

  test("reopens a stored dispersal after a reload and cancels it", async ({ page, server }) => {
    await openWithRows(page, server.url, [[freshAddress(), "0.1"]]);
    await page.getByRole("button", { name: "[recommend]" }).click();
    await page.getByRole("button", { name: "[create dispersal]" }).click();
    const dialog = page.getByTestId("dispersal-dialog");
    const receiver = (await dialog.getByTestId("dispersal-receiver").textContent()) ?? "";
    await dialog.getByRole("button", { name: "[close]" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "[view dispersal]" }).waitFor();

    await page.reload();
    const reopened = dialog.getByTestId("dispersal-receiver");
    await reopened.waitFor();
    expect(await reopened.textContent()).toBe(receiver);
    await dialog.getByRole("button", { name: "[cancel dispersal]" }).click();
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "[confirm]" }).click();

    await page.getByText("Dispersal cancelled").waitFor();
    await dialog.waitFor({ state: "hidden" });
    expect(await storedDispersalId(page)).toBeNull();
    await page.getByRole("button", { name: "[create dispersal]" }).waitFor();
    expect(await page.getByRole("button", { name: "[view dispersal]" }).count()).toBe(0);
  });

  test("forgets a stored id the server does not know", async ({ page, server }) => {
    const unknown = freshAddress();
    await page.evaluate((id) => localStorage.setItem("dispersal-id", id), unknown);
    await page.goto(`${server.url}/disperser`);
    await page.getByText("Dispersal not found").waitFor();
    await page.getByRole("button", { name: "[create dispersal]" }).waitFor();
    expect(await storedDispersalId(page)).toBeNull();
  });
});
