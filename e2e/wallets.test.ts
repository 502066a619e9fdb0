/// <reference lib="dom" />

import type { Page } from "playwright-core";
import { type Address, createPublicClient, erc20Abi, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, type LaunchedBundle, test } from "./support/fixtures.ts";
import { finishedRows, payableDraft } from "./support/flows.ts";

// Four wallets and a developer who bought too, so the developer panel shows.
test.override("draftInput", () => {
  const draft = payableDraft("Wallet Cat", "WCAT", { wallets: 4 });
  return { ...draft, tokenInfo: { ...draft.tokenInfo, preSale: "0.01" } };
});

const chain = (rpcUrl: string) => createPublicClient({ transport: http(rpcUrl) });

const tokenBalance = (rpcUrl: string, token: Address, owner: Address) =>
  chain(rpcUrl).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });

/** Opens the bundle's page from /wallets, as a user does: the card, then its page. */
const openBundle = async (page: Page, url: string, bundle: LaunchedBundle) => {
  await page.goto(`${url}/wallets`);
  const card = page.getByTestId("bundle-card").filter({ hasText: "WCAT" });
  await card.click();
  await page.waitForURL(`**/wallets/${bundle.tokenAddress}`);
  await page.getByTestId("wallet-row").first().waitFor();
};

describe("the wallet manager", () => {
  test("lists the launched bundle and opens it at its own URL, which survives a reload", async ({
    page,
    server,
    launchedBundle,
  }) => {
    await page.goto(`${server.url}/wallets`);
    await page.getByText("Your Token Bundles").waitFor();
    const card = page.getByTestId("bundle-card").filter({ hasText: "WCAT" });
    expect(await card.getByTestId("bundle-wallet-count").textContent()).toContain("4");
    expect(await card.getByTestId("bundle-badge").textContent()).not.toContain("DEX");
    await openBundle(page, server.url, launchedBundle);
    await page.reload();
    await page.getByTestId("wallet-row").first().waitFor();
    expect(await page.getByTestId("token-address").textContent()).toContain(
      launchedBundle.tokenAddress,
    );
    expect(await page.getByTestId("wallet-row").count()).toBe(4);
  });

  test("sells 50% from the non-empty wallets: the dialog ends in success, and chain and page show half left", async ({
    page,
    server,
    launchedBundle,
  }) => {
    const { tokenAddress, wallets } = launchedBundle;
    const before = await Promise.all(
      wallets.map((wallet) => tokenBalance(server.rpcUrl, tokenAddress, wallet.address)),
    );
    await openBundle(page, server.url, launchedBundle);
    const totalBefore = await page.getByTestId("overview-tokens").textContent();

    await page.getByRole("button", { name: "[non-empty]" }).click();
    await page.getByText("4 of 4 wallets selected").waitFor();
    const sellPanel = page.getByRole("region", { name: "Sell Tokens" });
    await sellPanel.getByRole("button", { name: "50%" }).click();
    await page.getByRole("button", { name: "[sell tokens]" }).click();

    const statuses = await finishedRows(page);
    expect(statuses.every((status) => status === "success")).toBe(true);
    // Half of a balance has 18 decimals; the dialog says each amount to 4 at most.
    const actions = await page.getByTestId("tx-action").allTextContents();
    expect(actions.filter((action) => action.startsWith("sell "))).toHaveLength(4);
    for (const action of actions) expect(action).toMatch(/^(approve|sell [\d,]+(\.\d{1,4})?)$/);
    // After a sell the selection clears.
    await page.getByText("0 of 4 wallets selected").waitFor();

    const after = await Promise.all(
      wallets.map((wallet) => tokenBalance(server.rpcUrl, tokenAddress, wallet.address)),
    );
    after.forEach((left, i) => {
      const had = before[i] ?? 0n;
      // The launchpad trades whole gwei of a token: the half is rounded down to one.
      const half = had - (had * 50n) / 100n;
      expect(left - half).toBeGreaterThanOrEqual(0n);
      expect(left - half).toBeLessThan(10n ** 9n);
    });
    await page.getByRole("button", { name: "[close]" }).click();
    await expect
      .poll(() => page.getByTestId("overview-tokens").textContent(), { timeout: 20_000 })
      .not.toBe(totalBefore);
    // The chart keeps the shares from before the sell beside the new ones.
    await page.getByText("before sell", { exact: false }).first().waitFor();
  });

  test("says why a sell was refused, after the spec's words", async ({
    page,
    server,
    launchedBundle,
  }) => {
    await openBundle(page, server.url, launchedBundle);
    await page.getByRole("button", { name: "[non-empty]" }).click();
    const sellPanel = page.getByRole("region", { name: "Sell Tokens" });
    await sellPanel.getByRole("textbox", { name: "Sell amount" }).fill("99999999999");
    await page.getByRole("button", { name: "[sell tokens]" }).click();

    const toast = page
      .getByRole("status")
      .filter({ hasText: "Something went wrong with selling the tokens, please try again." });
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(
      /holds only [\d,]+(\.\d{1,4})? tokens, less than the 99,999,999,999 to sell/,
    );
    await page.getByTestId("tx-progress").waitFor({ state: "detached" });
  });

  test("shows a wallet's new balance within 10 s, without a reload", async ({
    page,
    server,
    api,
    launchedBundle,
  }) => {
    await openBundle(page, server.url, launchedBundle);
    const before = await page.getByTestId("overview-bnb").textContent();
    const wallet = launchedBundle.wallets[0];
    if (!wallet) throw new Error("the bundle has no wallet");
    await api.faucet(wallet.address, "1");
    await expect
      .poll(() => page.getByTestId("overview-bnb").textContent(), { timeout: 15_000 })
      .not.toBe(before);
  });

  test("empties two wallets to a receiver: each ends at exactly 0 wei and the receiver has their BNB", async ({
    page,
    server,
    launchedBundle,
  }) => {
    const receiver = privateKeyToAccount(generatePrivateKey()).address;
    const first = launchedBundle.wallets[0];
    const second = launchedBundle.wallets[1];
    if (!first || !second) throw new Error("the bundle has fewer than two wallets");
    const client = chain(server.rpcUrl);
    const held =
      (await client.getBalance({ address: first.address })) +
      (await client.getBalance({ address: second.address }));
    expect(held).toBeGreaterThan(0n);

    await openBundle(page, server.url, launchedBundle);
    await page.getByLabel(`Select ${first.address}`).check();
    await page.getByLabel(`Select ${second.address}`).check();
    await page.getByText("2 of 4 wallets selected").waitFor();
    await page.getByLabel("Receiver address").fill(receiver);
    await page.getByRole("button", { name: "[empty selected wallets]" }).click();
    // Both still hold the tokens they bought: the page asks first.
    const question = page.getByTestId("confirm-dialog");
    await question
      .getByText(
        /^2 of the wallets still hold [\d.]+[KMB]? WCAT, which they cannot sell after this\.$/,
      )
      .waitFor();
    await question.getByRole("button", { name: "[empty anyway]" }).click();
    await page.getByText("2 wallets emptied successfully").waitFor({ timeout: 60_000 });

    // The progress dialog shows each transfer: its hash, the BNB it sent and its status.
    const statuses = await finishedRows(page);
    expect(statuses).toEqual(["success", "success"]);
    const dialog = page.getByTestId("tx-progress");
    for (const action of await dialog.getByTestId("tx-action").allTextContents())
      expect(action).toMatch(/^send \d+\.\d{4} BNB$/);
    expect(await dialog.locator("a[data-tx-hash]").count()).toBe(2);

    expect(await client.getBalance({ address: first.address })).toBe(0n);
    expect(await client.getBalance({ address: second.address })).toBe(0n);
    const received = await client.getBalance({ address: receiver });
    expect(received).toBeGreaterThan(0n);
    expect(received).toBeLessThan(held);
    // After emptying, the selection and the receiver clear.
    await page.getByText("0 of 4 wallets selected").waitFor();
    expect(await page.getByLabel("Receiver address").inputValue()).toBe("");
  });

  test("sells all of the developer's tokens from the developer panel", async ({
    page,
    server,
    launchedBundle,
  }) => {
    const { tokenAddress, developer } = launchedBundle;
    expect(await tokenBalance(server.rpcUrl, tokenAddress, developer.address)).toBeGreaterThan(0n);
    await openBundle(page, server.url, launchedBundle);
    const panel = page.getByRole("region", { name: "Sell Developer Tokens" });
    expect(await panel.getByTestId("developer-address").textContent()).toContain(developer.address);
    await panel.getByRole("button", { name: "100%" }).click();
    await panel.getByRole("button", { name: "[sell developer tokens]" }).click();

    const statuses = await finishedRows(page);
    expect(statuses.every((status) => status === "success")).toBe(true);
    expect(await tokenBalance(server.rpcUrl, tokenAddress, developer.address)).toBe(0n);
    await page.getByRole("button", { name: "[close]" }).click();
    // A developer with nothing left has no panel.
    await panel.waitFor({ state: "detached", timeout: 20_000 });
  });
});
