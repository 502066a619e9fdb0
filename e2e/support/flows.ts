import type { Page } from "playwright-core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";

/** A fresh visitor takes a free key; answers the key. */
export const getFreeAccess = async (page: Page, url: string): Promise<string> => {
  await page.goto(url);
  await page.getByRole("button", { name: "Get Free Access" }).click();
  const key = (await page.getByTestId("generated-key").textContent())?.trim() ?? "";
  await continueToApp(page);
  return key;
};

/**
 * Leaves the generated-key step: [download] first ("Continue to App" is enabled only once the
 * key was copied or downloaded; a download needs no clipboard), then "Continue to App".
 */
export const continueToApp = async (page: Page): Promise<void> => {
  const modal = page.getByTestId("auth-modal");
  await modal.getByRole("button", { name: "Download access key" }).click();
  await modal.getByRole("button", { name: "Continue to App" }).click();
  await modal.waitFor({ state: "hidden" });
};

/** A 1×1 PNG: the smallest logo the browser can decode. */
export const tinyPng = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * A launch-ready draft (what the payment route accepts): name, ticker, description, logo,
 * deployer and tip, plus `wallets` bundle wallets (1 by default) buying 0.01 BNB each, so the
 * create page offers "Update Draft" for it. Keys included, so a test can sign as any wallet.
 */
export const payableDraft = (name: string, symbol = "TST", { wallets = 1 } = {}) => {
  const privateKey = generatePrivateKey();
  const deployer = privateKeyToAccount(privateKey);
  const bundle = Array.from({ length: wallets }, () => {
    const walletKey = generatePrivateKey();
    return {
      address: privateKeyToAccount(walletKey).address,
      privateKey: walletKey,
      buyValue: "0.01",
    };
  });
  return {
    tokenInfo: {
      name,
      symbol,
      description: `${name}, made by the e2e tests.`,
      image: `data:image/png;base64,${tinyPng.toString("base64")}`,
    },
    deployerWallet: { address: deployer.address, privateKey },
    walletConfig: { tip: "0.001", wallets: bundle },
  };
};

export type PayableDraft = ReturnType<typeof payableDraft>;

/** Logs `page` in with an existing key through the modal's "[import existing key]". */
export const logInWithKey = async (page: Page, url: string, key: string): Promise<void> => {
  await page.goto(url);
  await page.getByRole("button", { name: "[import existing key]" }).click();
  await page.getByLabel("Access key").fill(key);
  await page.getByRole("button", { name: "Import Key", exact: true }).click();
  await page.getByTestId("auth-modal").waitFor({ state: "hidden" });
};

/** A free key taken through the API for `deviceId` (no browser), as another device would. */
export const freeKeyFor = async (url: string, deviceId: string): Promise<string> => {
  const response = await fetch(`${url}/api/auth/key/generate-free`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ deviceId, userAgent: "e2e" }),
  });
  const body = (await response.json()) as { key?: string; error?: string };
  if (!body.key) throw new Error(`no free key for ${deviceId}: ${body.error}`);
  return body.key;
};

/** Waits until the progress dialog has every row finished; answers the rows' statuses. */
export const finishedRows = async (page: Page) => {
  const dialog = page.getByTestId("tx-progress");
  await dialog.waitFor();
  await expect
    .poll(
      async () => {
        const statuses = await dialog
          .getByTestId("tx-row")
          .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-status")));
        return statuses.length > 0 && !statuses.includes("pending") ? statuses : null;
      },
      { timeout: 60_000, interval: 500 },
    )
    .not.toBeNull();
  return dialog
    .getByTestId("tx-row")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-status")));
};
