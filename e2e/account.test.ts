/// <reference lib="dom" />
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { decryptBackup } from "../apps/web/src/features/auth/utils/key-backup.ts";
import { apiClient } from "./support/api.ts";
import { describe, expect, test } from "./support/fixtures.ts";
import { freeKeyFor, payableDraft } from "./support/flows.ts";

const modal = (page: Page) => page.getByTestId("auth-modal");
const PASSPHRASE = "purple walrus at dawn";
const LOGOUT_QUESTION =
  "Are you sure? Save your key first: without it this account cannot be reached again.";

/** [logout] in the menu, then the dialog's own [logout]. */
const logOut = async (page: Page) => {
  await page.getByRole("button", { name: "[logout]" }).click();
  const dialog = page.getByTestId("confirm-dialog");
  await dialog.getByText(LOGOUT_QUESTION).waitFor();
  await dialog.getByRole("button", { name: "[logout]" }).click();
  await modal(page).waitFor();
};

describe("the Account page", () => {
  test("shows the key masked with [show] and [copy], its kind, role and creation date", async ({
    page,
    server,
    key,
  }) => {
    await page.getByRole("link", { name: "[account]" }).click();
    await page.waitForURL(`${server.url}/account`);

    const shown = page.getByTestId("account-key");
    await expect.poll(() => page.getByTestId("account-kind").textContent()).toBe("free");
    expect(await page.getByTestId("account-role").textContent()).toBe("user");
    const created = new Date((await page.getByTestId("account-created").textContent()) ?? "");
    expect(Math.abs(Date.now() - created.getTime())).toBeLessThan(10 * 60_000);
    const masked = (await shown.textContent()) ?? "";
    expect(masked).not.toBe(key);
    expect(masked).not.toContain(key.slice(6, -4));

    await page.getByRole("button", { name: "[show]" }).click();
    expect(await shown.textContent()).toBe(key);
    // The key screen's [copy] put the key there already: empty it first.
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await page.getByRole("button", { name: "Copy access key" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    // The file's first test also waits for its server to start (near 2 minutes on a busy machine).
  }, 240_000);

  test("downloads an encrypted backup that logs back in after a logout, to the same drafts", async ({
    page,
    server,
    key,
    api,
  }) => {
    const draft = payableDraft("Backup Cat", "BKCAT", { wallets: 2 });
    const draftId = await api.createDraft(draft);
    await page.goto(`${server.url}/account`);
    await page.getByLabel("Backup passphrase").fill(PASSPHRASE);
    await page.getByLabel("Repeat the passphrase").fill(PASSPHRASE);
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "[download backup]" }).click();
    const file = await (await downloading).path();
    const text = readFileSync(file, "utf8");

    // Nothing readable without the passphrase; with it, the key and the draft's wallet keys.
    expect(text).not.toContain(key);
    expect(text).not.toContain(draft.deployerWallet.privateKey.slice(2));
    const contents = await decryptBackup(text, PASSPHRASE);
    expect(contents.accessKey).toBe(key);
    const held = contents.wallets.map((wallet) => wallet.privateKey);
    expect(held).toContain(draft.deployerWallet.privateKey);
    for (const wallet of draft.walletConfig.wallets) expect(held).toContain(wallet.privateKey);

    await logOut(page);
    await page.getByRole("button", { name: "[import existing key]" }).click();
    await page.getByLabel("Or a backup file").setInputFiles(file);
    await page.getByLabel("Backup passphrase").fill("not the passphrase");
    await page.getByRole("button", { name: "Import Key", exact: true }).click();
    await page
      .getByTestId("import-problem")
      .getByText("Wrong passphrase: this backup cannot be opened with it")
      .waitFor();
    expect(await modal(page).isVisible()).toBe(true);

    await page.getByLabel("Backup passphrase").fill(PASSPHRASE);
    await page.getByRole("button", { name: "Import Key", exact: true }).click();
    await modal(page).waitFor({ state: "hidden" });
    await page.getByRole("link", { name: "[my drafts]" }).click();
    await page
      .locator(`[data-draft-id="${draftId}"]`)
      .getByRole("heading", { name: "Backup Cat" })
      .waitFor();
  });

  test("buys another key with a typed referral code and continues with it once it is copied", async ({
    page,
    server,
    key: _key,
  }) => {
    // Someone else's code, made on another device.
    const friend = apiClient(server.url, await freeKeyFor(server.url, "device-account-friend"));
    await friend.post("/api/auth/referral/create", { code: "friend_code" });

    await page.goto(`${server.url}/account`);
    await page.getByLabel("Referral code (optional)").fill("friend_code");
    await page.getByRole("button", { name: "[buy access key]" }).click();
    expect(await page.getByTestId("key-discount").textContent()).toBe("−$0.60");
    await page.getByRole("button", { name: "[pay from faucet]" }).click();
    const bought = (await page.getByTestId("generated-key").textContent({ timeout: 60_000 })) ?? "";
    expect(bought).toMatch(/^lbk_/);

    const dialog = page.getByTestId("buy-key-modal");
    const next = dialog.getByRole("button", { name: "Continue to App" });
    expect(await next.isDisabled()).toBe(true);
    await dialog.getByRole("button", { name: "Copy access key" }).click();
    await next.click();
    await page.getByTestId("buy-key-modal").waitFor({ state: "hidden" });
    await expect.poll(() => page.getByTestId("account-kind").textContent()).toBe("paid");
    await page.getByRole("button", { name: "[show]" }).click();
    expect(await page.getByTestId("account-key").textContent()).toBe(bought);
  });
});

describe("logging out", () => {
  test("asks first, and [cancel] keeps the session", async ({ page, key: _key }) => {
    await page.getByRole("button", { name: "[logout]" }).click();
    const dialog = page.getByTestId("confirm-dialog");
    await dialog.getByText(LOGOUT_QUESTION).waitFor();
    await dialog.getByRole("button", { name: "[cancel]" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.reload();
    await page.getByRole("link", { name: "[account]" }).waitFor();
    expect(await modal(page).isVisible()).toBe(false);
  });

  test("logs out on the dialog's [logout]", async ({ page, key: _key }) => {
    await logOut(page);
    await page.reload();
    await modal(page).waitFor();
  });
});

describe("a new free key's screen", () => {
  test("stays until Continue to App, which only a copy or a download enables", async ({
    page,
    server,
  }) => {
    await page.goto(server.url);
    await page.getByRole("button", { name: "Get Free Access" }).click();
    await page.getByTestId("generated-key").waitFor();
    const next = modal(page).getByRole("button", { name: "Continue to App" });
    // Past the two seconds after which it used to go by itself.
    await page.waitForTimeout(3_000);
    expect(await page.getByTestId("generated-key").isVisible()).toBe(true);
    expect(await next.isDisabled()).toBe(true);

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download access key" }).click();
    const key = (await page.getByTestId("generated-key").textContent()) ?? "";
    expect(readFileSync(await (await downloading).path(), "utf8").trim()).toBe(key);
    await next.click();
    await modal(page).waitFor({ state: "hidden" });
  });
});

describe("Get Free Access on a device that has a key", () => {
  test("says the server's words after the spec's, with [import key] opening the import screen", async ({
    page,
    key,
  }) => {
    await logOut(page);
    await page.getByRole("button", { name: "Get Free Access" }).click();
    const refusal = page.getByTestId("free-key-refused");
    await refusal.getByText("Failed to generate access key").waitFor();
    await refusal
      .getByText("This device already has an access key. Import the key you already have.")
      .waitFor();
    await refusal.getByRole("button", { name: "[import key]" }).click();
    await page.getByLabel("Access key").fill(key);
    await page.getByRole("button", { name: "Import Key", exact: true }).click();
    await modal(page).waitFor({ state: "hidden" });
  });
});
