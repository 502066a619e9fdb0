import type { Page } from "playwright-core";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, logIn, test } from "./support/fixtures.ts";
import { tinyPng } from "./support/flows.ts";

// Every test here starts on the create page, logged in with a free key.
test.beforeEach(logIn);

/** The message shows, as a toast or inline under its field. */
const shows = (page: Page, message: string) =>
  page.getByText(message, { exact: true }).first().waitFor({ timeout: 15_000 });

/** The message shows as a toast (a field's inline error with the same words does not count). */
const toasts = (page: Page, message: string) =>
  page
    .locator("[data-rht-toaster]")
    .getByText(message, { exact: true })
    .first()
    .waitFor({ timeout: 15_000 });

const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

const upload = (page: Page, label: string, name: string, mimeType: string, content: string) =>
  page.getByLabel(label).setInputFiles({ name, mimeType, buffer: Buffer.from(content) });

/** Imports one valid bundle wallet through [import keys]. */
const importOneWallet = async (page: Page) => {
  await button(page, "[import keys]").click();
  await page.getByLabel("Private keys").fill(generatePrivateKey());
  await button(page, "Import").click();
  await page.getByText("1 wallet loaded").waitFor();
};

describe("the create page's validation", () => {
  test("refuses bad wallet generation input with its message", async ({ page }) => {
    await page.getByLabel("Number of wallets").fill("0");
    await page.getByLabel("Min buy").fill("0.01");
    await page.getByLabel("Max buy").fill("0.02");
    await button(page, "Generate Wallets").click();
    await shows(page, "Please enter a valid number of wallets (minimum 1)");

    await page.getByLabel("Number of wallets").fill("3");
    await page.getByLabel("Min buy").fill("");
    await button(page, "Generate Wallets").click();
    await shows(page, "Please enter a minimum and maximum buy amount");

    await page.getByLabel("Min buy").fill("-0.01");
    await button(page, "Generate Wallets").click();
    await shows(page, "Buy amounts cannot be negative");

    await page.getByLabel("Min buy").fill("0.05");
    await button(page, "Generate Wallets").click();
    await shows(page, "Minimum buy amount cannot be greater than maximum buy amount");
  });

  test("shows the form validator's message under each bad field", async ({ page }) => {
    await page.getByLabel("Token name").fill("A".repeat(21));
    await shows(page, "Token name must be 20 characters or less");
    await page.getByLabel("Ticker").fill("ABCDEFGHIJK");
    await shows(page, "Ticker must be less than 10 characters");
    await page.getByLabel("Description").fill("d".repeat(401));
    await shows(page, "Description must be 400 characters or less");
    await page.getByLabel("Twitter").fill("https://facebook.com/moon");
    await shows(page, "Twitter link must start with https://x.com/ or https://twitter.com/");
    await page.getByLabel("Telegram").fill("https://discord.gg/moon");
    await shows(page, "Telegram link must start with https://t.me/");
    await page.getByLabel("Website").fill("moon.example");
    await shows(page, "Website must start with https:// or http://");

    await page.getByLabel("Deployer private key").fill("0x1234");
    await shows(page, "Invalid private key");

    await importOneWallet(page);
    await page.getByLabel("Sniper address").fill("0x000000000000000000000000000000000000dEaD");
    await shows(page, "Address must be one of the imported wallet addresses");
    await page.getByLabel("Delay", { exact: true }).fill("soon");
    await shows(page, "Please enter a valid delay");
  });

  test("refuses a logo that is not an image or is 5MB or more", async ({ page }) => {
    await upload(page, "Logo", "notes.txt", "text/plain", "not a picture");
    await shows(page, "Please upload an image file");

    await page.getByLabel("Logo").setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    await shows(page, "Image must be smaller than 5MB");
    await page.getByText("no logo").waitFor();
  });

  test("refuses bad wallet files and key lists with their messages", async ({ page }) => {
    const file = "Wallet JSON file";

    await upload(page, file, "wallets.txt", "text/plain", "[]");
    await shows(page, "Please upload a JSON file");
    await upload(page, file, "wallets.json", "application/json", '{"address":"0x1"}');
    await shows(page, "Invalid format: File must contain an array");
    await upload(page, file, "bad.json", "application/json", '[{"key":"0x1"}, 42]');
    await shows(page, "Invalid format: Must match either Wagyu or simple format");
    await upload(page, file, "keys.json", "application/json", '["0x1234"]');
    await shows(page, "No valid private keys entered");
    await page.getByText(/wallets? loaded/).waitFor({ state: "detached" });
    // The import's own toast must not be mistaken for the upload's.
    await page.getByText("No valid private keys entered").waitFor({ state: "detached" });

    await button(page, "[import keys]").click();
    await page.getByLabel("Private keys").fill("nope, 0x1234, 0xzz");
    await button(page, "Import").click();
    await shows(page, "No valid private keys entered");
    await page.getByLabel("Private keys").waitFor();
  });

  test("refuses to save or pay a draft that misses a required field", async ({ page }) => {
    await importOneWallet(page);
    await page.getByLabel("Min buy").fill("0.01");
    await page.getByLabel("Max buy").fill("0.02");
    await button(page, "Generate Amounts").click();
    await button(page, "[fund all]").click();
    await button(page, "Pay Now").waitFor({ timeout: 60_000 });

    await button(page, "Save as Draft").click();
    await shows(page, "Please enter a token name");
    await page.getByLabel("Token name").fill("Moon Cat");
    await button(page, "Save as Draft").click();
    await shows(page, "Please enter a token ticker");
    await page.getByLabel("Ticker").fill("MCAT");
    await button(page, "Save as Draft").click();
    await shows(page, "Please enter a token description");
    await page.getByLabel("Description").fill("A cat that goes to the moon.");

    // SPEC §5 "Launch execute", checked on Pay Now.
    await page.getByLabel("Token name").fill("A".repeat(21));
    await button(page, "Pay Now").click();
    await toasts(page, "Name must be less than 20 characters");
    await page.getByLabel("Token name").fill("Moon Cat");
    await page.getByLabel("Ticker").fill("ABCDEFGHIJK");
    await button(page, "Pay Now").click();
    await toasts(page, "Ticker must be less than 10 characters");
    await page.getByLabel("Ticker").fill("MCAT");

    await button(page, "Pay Now").click();
    await toasts(page, "Please upload a logo");
    await page
      .getByLabel("Logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: tinyPng });
    await page.getByAltText("Token logo preview").waitFor();
    await button(page, "Pay Now").click();
    await toasts(page, "Invalid deployer private key");
    await page.getByLabel("Deployer private key").fill(generatePrivateKey());
    // The plan now has the deployer pay the create and the tip: Pay Now waits for its funds.
    await button(page, "[fund all]").click();
    await button(page, "Pay Now").waitFor({ timeout: 60_000 });

    const tip = page.getByLabel("Tip", { exact: true });
    await tip.fill("");
    await button(page, "Pay Now").click();
    await toasts(page, "Please enter a tip amount");
    await tip.fill("abc");
    await button(page, "Pay Now").click();
    await toasts(page, "Tip must be a number");
    await tip.fill("-0.001");
    await button(page, "Pay Now").click();
    await toasts(page, "Tip cannot be negative");
    expect(new URL(page.url()).pathname).not.toBe("/drafts");
  });

  test("shows placeholders as examples in a muted style, not as values", async ({ page }) => {
    for (const [label, example] of [
      ["Number of wallets", "e.g. 5"],
      ["Min buy", "e.g. 0.5"],
      ["Max buy", "e.g. 1"],
      ["Deployer buy", "e.g. 0.1"],
      ["Token name", "e.g. Moon Dog"],
    ] as const) {
      const input = page.getByLabel(label, { exact: true });
      expect(await input.getAttribute("placeholder"), label).toBe(example);
      expect(await input.inputValue(), label).toBe("");
    }
    const colors = await page.getByLabel("Min buy", { exact: true }).evaluate((input) => ({
      placeholder: getComputedStyle(input, "::placeholder").color,
      text: getComputedStyle(input).color,
    }));
    expect(colors.placeholder).not.toBe(colors.text);
  });

  test("says what is wrong with a deployer buy of -5 and a tip of 1e99", async ({ page }) => {
    await page.getByLabel("Deployer buy").fill("-5");
    await shows(page, "Deployer buy cannot be negative");
    await page.getByLabel("Tip", { exact: true }).fill("1e99");
    await shows(page, "Tip must be written out in digits, like 0.001");
  });

  test("names the buy amount that is not a number instead of asking for both", async ({ page }) => {
    await page.getByLabel("Number of wallets").fill("3");
    await page.getByLabel("Min buy").fill("abc");
    await page.getByLabel("Max buy").fill("0.02");
    await button(page, "Generate Wallets").click();
    await toasts(page, "Min buy must be a number, like 0.5");
    expect(await page.getByText("Please enter a minimum and maximum buy amount").count()).toBe(0);
  });

  test("shows the server's refusal of a wallet count as a sentence with the field's label", async ({
    page,
  }) => {
    await page.getByLabel("Number of wallets").fill("500");
    // Beside the count: how many of them buy in the create's block with the local builders.
    await page.getByText("The other 452 wallets buy in later bundles").waitFor();
    expect(await page.getByTestId("block-fit").textContent()).toMatch(
      /^Up to 48 buying wallets land in the create's block: the local builder takes 50 transactions \(the create, 48 buys, its tip\)/,
    );
    await page.getByLabel("Min buy").fill("0.01");
    await page.getByLabel("Max buy").fill("0.02");
    await button(page, "Generate Wallets").click();
    await toasts(page, "Number of wallets must be at most 100");
    expect(await page.getByText(/walletCount|Too big/).count()).toBe(0);
  });
});
