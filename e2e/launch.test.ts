/// <reference lib="dom" />
import { readFileSync } from "node:fs";
import { createPublicClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, test } from "./support/fixtures.ts";
import { tinyPng } from "./support/flows.ts";

test.override("serverEnv", { LAUNCH_FEE_BNB: "0.5" });

/** "buy 0.0123 · bal …" in the generated-wallets modal → 0.0123. */
const buyValueOf = (text: string | null) => Number(/buy (\d+\.\d+)/.exec(text ?? "")?.[1]);

describe("a launch on the local chain, as a new user does it", () => {
  test("goes from a free key to a token whose buys all share the create's block", async ({
    page,
    server,
    api,
  }) => {
    const button = (name: string) => page.getByRole("button", { name, exact: true });

    // Token info, with a logo.
    await page.getByLabel("Token name").fill("Moon Cat");
    await page.getByLabel("Ticker").fill("MCAT");
    await page.getByLabel("Description").fill("A cat that goes to the moon.");
    await page
      .getByLabel("Logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: tinyPng });
    await page.getByAltText("Token logo preview").waitFor();

    // A fresh deployer wallet; its dialog closes once the key is copied.
    await button("[generate new wallet]").click();
    await button("[copy]").click();
    await button("Close").click();
    const deployerKey = (await page.getByLabel("Deployer private key").inputValue()) as Hex;
    const deployer = privateKeyToAccount(deployerKey).address;

    // Five bundle wallets, downloaded before the warning lets go.
    await page.getByLabel("Number of wallets").fill("5");
    await page
      .getByRole("group", { name: "Buy unit" })
      .getByRole("button", { name: "BNB" })
      .click();
    await page.getByLabel("Min buy").fill("0.01");
    await page.getByLabel("Max buy").fill("0.02");
    await button("Generate Wallets").click();
    const download = page.waitForEvent("download");
    await button("Download Wallets").click();
    const file = await (await download).path();
    const bundleWallets = JSON.parse(readFileSync(file, "utf8")) as Array<{
      address: string;
      privateKey: Hex;
    }>;
    expect(bundleWallets).toHaveLength(5);
    for (const wallet of bundleWallets)
      expect(privateKeyToAccount(wallet.privateKey).address).toBe(wallet.address);
    await button("[close]").click();

    // Generate amounts again with a new range: every buy value lands in it.
    await page.getByLabel("Min buy").fill("0.03");
    await page.getByLabel("Max buy").fill("0.04");
    await button("[regenerate amounts]").click();
    await button("[view wallets]").click();
    const walletsDialog = page.getByRole("dialog", { name: /Generated Wallets/ });
    await expect
      .poll(async () => (await walletsDialog.getByText(/^buy /).allTextContents()).map(buyValueOf))
      .toSatisfy((values: number[]) => values.length === 5 && values.every((v) => v >= 0.03));
    for (const text of await walletsDialog.getByText(/^buy /).allTextContents()) {
      expect(buyValueOf(text)).toBeGreaterThanOrEqual(0.03);
      expect(buyValueOf(text)).toBeLessThanOrEqual(0.04);
    }
    await walletsDialog.getByRole("button", { name: "Close", exact: true }).click();

    // Fund every launch wallet from the local faucet.
    await button("[fund all]").click();
    await page.getByText("All wallets are funded", { exact: true }).waitFor({ timeout: 60_000 });
    await button("Pay Now").waitFor();

    // Save, then reopen the draft for editing.
    await button("Save as Draft").click();
    await page.waitForURL(/\/drafts$/);
    const card = page.getByTestId("draft-card");
    await card.waitFor();
    const id = (await card.getAttribute("data-draft-id")) ?? "";
    await card.getByRole("link", { name: "[edit]" }).click();
    await page.waitForURL(`${server.url}/create?draft=${id}`);
    await page.getByRole("link", { name: "[back to drafts]" }).waitFor();
    await expect.poll(() => page.getByLabel("Token name").inputValue()).toBe("Moon Cat");

    // Pay the launch fee from the faucet.
    await button("Pay Now").click();
    await page.waitForURL(`${server.url}/drafts?pay=${id}`);
    await page.getByTestId("payment-dialog").waitFor();
    await button("[pay from faucet]").click();
    await page.getByTestId("payment-confirmed").waitFor({ timeout: 30_000 });
    await page.getByTestId("payment-dialog").waitFor({ state: "hidden", timeout: 10_000 });
    await card.getByTestId("draft-status").getByText("Paid", { exact: true }).waitFor();

    // Execute, confirming in the spec's words.
    await card.getByRole("button", { name: "Execute Launch" }).click();
    await page
      .getByText("Are you ready to launch Moon Cat (MCAT)? This action cannot be undone.", {
        exact: true,
      })
      .waitFor();
    await button("[launch]").click();
    const terminal = page.getByTestId("bundle-terminal");
    await terminal
      .getByTestId("terminal-line")
      .filter({ hasText: /SUCCESS MCAT launched: token 0x[0-9a-fA-F]{40}/ })
      .waitFor({ timeout: 60_000 });
    await terminal.getByText("Launch complete", { exact: true }).waitFor();

    // On chain: the token exists, and the create's block holds the deployer's create and one
    // buy from each bundle wallet.
    const draft = await api.getDraft(id);
    expect(draft.status).toBe("executed");
    // The terminal names the builder whose tip is in that block.
    const landed = await terminal
      .getByTestId("terminal-line")
      .filter({ hasText: "landed through" })
      .textContent();
    expect(landed).toMatch(
      new RegExp(
        `landed through local(-slow)? in block ${draft.launch?.blockNumber} \\(sent to [12] builders?\\)`,
      ),
    );
    const token = (draft.launch?.tokenAddress ?? "0x") as Hex;
    const client = createPublicClient({ transport: http(server.rpcUrl) });
    expect(await client.getCode({ address: token })).not.toBe("0x");

    const launchpad = /launchpad (0x[0-9a-fA-F]{40})/.exec(server.output())?.[1]?.toLowerCase();
    expect(launchpad).toMatch(/^0x/);
    const block = await client.getBlock({
      blockNumber: BigInt(draft.launch?.blockNumber ?? "0"),
      includeTransactions: true,
    });
    const toLaunchpadFrom = (address: string) =>
      block.transactions.filter(
        (tx) =>
          tx.from.toLowerCase() === address.toLowerCase() && tx.to?.toLowerCase() === launchpad,
      );
    expect(toLaunchpadFrom(deployer).length).toBeGreaterThanOrEqual(1);
    for (const wallet of bundleWallets) expect(toLaunchpadFrom(wallet.address)).toHaveLength(1);
  });
});

describe("a paid draft, executed in place from the launch page", () => {
  test("funds its wallets, confirms in the spec's words and follows the launch to its end in the Bundle Terminal", async ({
    page,
    server,
    api,
    paidDraft,
  }) => {
    const button = (name: string) => page.getByRole("button", { name, exact: true });
    const executeCalls: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && /\/execute$/.test(new URL(request.url()).pathname))
        executeCalls.push(new URL(request.url()).pathname);
    });

    await page.goto(`${server.url}/create?draft=${paidDraft.id}`);
    await page.getByRole("link", { name: "[back to drafts]" }).waitFor();
    await expect.poll(() => page.getByLabel("Token name").inputValue()).toBe("Fixture Cat");
    // Paid: no Pay Now. Its wallets are empty, so the faucet funds them first.
    await button("[fund all]").click();
    await page.getByText("All wallets are funded", { exact: true }).waitFor({ timeout: 60_000 });
    expect(await button("Pay Now").count()).toBe(0);

    await button("Execute Launch").click();
    const confirm = page.getByTestId("confirm-dialog");
    await confirm
      .getByText("Are you ready to launch Fixture Cat (FCAT)? This action cannot be undone.", {
        exact: true,
      })
      .waitFor();
    await confirm.getByTestId("execute-total").waitFor();
    await confirm.getByRole("button", { name: "[launch]", exact: true }).click();

    const terminal = page.getByTestId("bundle-terminal");
    await terminal
      .getByTestId("terminal-line")
      .filter({ hasText: /SUCCESS FCAT launched: token 0x[0-9a-fA-F]{40}/ })
      .waitFor({ timeout: 60_000 });
    await terminal.getByText("Launch complete", { exact: true }).waitFor();
    // It ran where the page is, through the encrypted-payload route.
    expect(executeCalls).toEqual(["/api/bundle/execute"]);
    expect(page.url()).toBe(`${server.url}/create?draft=${paidDraft.id}`);

    const draft = await api.getDraft(paidDraft.id);
    expect(draft.status).toBe("executed");
    const client = createPublicClient({ transport: http(server.rpcUrl) });
    expect(await client.getCode({ address: draft.launch?.tokenAddress as Hex })).not.toBe("0x");

    // Launched: the page offers no launch again, and 10 s later goes to the drafts list.
    await button("Execute Launch").waitFor({ state: "detached" });
    await page.waitForURL(`${server.url}/drafts`, { timeout: 20_000 });
    await page.locator(`[data-draft-id="${paidDraft.id}"]`).getByText("Launch completed").waitFor();
  });
});
