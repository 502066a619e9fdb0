/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Api } from "./api.ts";

/** The disperser's browser tests' helpers. */

export const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/** Balances as the API reports them, by lowercase address. */
export const balancesOf = async (api: Api, addresses: string[]): Promise<Map<string, string>> => {
  const body = await api.post<{ balances: { address: string; balance: string }[] }>(
    "/api/wallets/balances",
    { addresses },
  );
  return new Map(body.balances.map((b) => [b.address.toLowerCase(), b.balance]));
};

export const storedDispersalId = (page: Page) =>
  page.evaluate(() => localStorage.getItem("dispersal-id"));

export const addressInputs = (page: Page) =>
  page.getByTestId("wallet-row").locator('input[aria-label^="Address"]');

/** The grid's addresses, in order. */
export const gridAddresses = (page: Page) =>
  addressInputs(page).evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));

/** Opens the disperser (logged in) with the given destinations typed into the grid. */
export const openWithRows = async (page: Page, url: string, rows: [string, string][]) => {
  await page.goto(`${url}/disperser`);
  for (const [index, [address, amount]] of rows.entries()) {
    if (index > 0) await page.getByRole("button", { name: "Add Row", exact: true }).click();
    await page.getByLabel(`Address ${index + 1}`, { exact: true }).fill(address);
    await page.getByLabel(`Amount ${index + 1}`, { exact: true }).fill(amount);
  }
};
