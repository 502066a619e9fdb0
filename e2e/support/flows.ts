import type { Page } from "playwright-core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

/** A fresh visitor takes a free key; answers the key. */
export const getFreeAccess = async (page: Page, url: string): Promise<string> => {
  await page.goto(url);
  await page.getByRole("button", { name: "Get Free Access" }).click();
  const key = (await page.getByTestId("generated-key").textContent())?.trim() ?? "";
  await continueToApp(page);
  return key;
};

/**
 * Leaves the generated-key step. The modal also continues by itself two seconds after the key
 * is shown, which on a loaded machine can happen before the click lands: either way counts.
 */
export const continueToApp = async (page: Page): Promise<void> => {
  await page
    .getByRole("button", { name: "Continue to App" })
    .click({ timeout: 1_000 })
    .catch(() => undefined);
  await page.getByTestId("auth-modal").waitFor({ state: "hidden" });
};

/** A 1×1 PNG: the smallest logo the browser can decode. */
export const tinyPng = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * A draft the payment route accepts: name, ticker, description, logo, deployer and tip, plus one
 * bundle wallet with a buy value, so the create page offers "Update Draft" for it.
 */
export const payableDraft = (name: string, symbol = "TST") => {
  const privateKey = generatePrivateKey();
  const deployer = privateKeyToAccount(privateKey);
  const walletKey = generatePrivateKey();
  const wallet = { address: privateKeyToAccount(walletKey).address, privateKey: walletKey };
  return {
    tokenInfo: {
      name,
      symbol,
      description: `${name}, made by the e2e tests.`,
      image: `data:image/png;base64,${tinyPng.toString("base64")}`,
    },
    deployerWallet: { address: deployer.address, privateKey },
    walletConfig: { tip: "0.001", wallets: [{ ...wallet, buyValue: "0.01" }] },
  };
};

/** Creates a draft through the API with the user's key; answers its id. */
export const createDraft = async (url: string, key: string, draft: unknown): Promise<string> => {
  const response = await fetch(`${url}/api/draft/create`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-auth-key": key },
    body: JSON.stringify(draft),
  });
  if (!response.ok) throw new Error(`create draft: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { draftId: string }).draftId;
};
