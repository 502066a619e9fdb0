/// <reference lib="dom" />
import { readFileSync } from "node:fs";
import path from "node:path";
import { buyToken } from "@bundler/chain";
import {
  type Address,
  createPublicClient,
  erc20Abi,
  type Hash,
  http,
  isAddressEqual,
  parseEther,
  parseEventLogs,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { apiClient } from "./support/api.ts";
import { describe, expect, test } from "./support/fixtures.ts";
import { finishedRows, payableDraft } from "./support/flows.ts";

// A curve that fills with a fraction of a BNB: one outside buy graduates the token.
test.override("serverEnv", { GRADUATION_BNB: "0.2" });

interface Contracts {
  launchpad: Address;
  helper: Address;
  router: Address;
  weth: Address;
}

const contractsOf = (dataDir: string): Contracts =>
  JSON.parse(readFileSync(path.join(dataDir, "chain", "deployment.json"), "utf8")).contracts;

describe("the wallet manager after graduation", () => {
  test("shows the DEX badge once the token graduated, and sells through the DEX router", async ({
    page,
    server,
    launchedBundle,
  }) => {
    const { tokenAddress, wallets } = launchedBundle;
    const contracts = contractsOf(server.dataDir);
    const client = createPublicClient({ transport: http(server.rpcUrl) });

    await page.goto(`${server.url}/wallets`);
    const badge = page.getByTestId("bundle-card").getByTestId("bundle-badge");
    await badge.waitFor();
    expect(await badge.textContent()).not.toContain("DEX");

    // Someone else buys the rest of the curve: the token moves to its DEX pair.
    const outsider = privateKeyToAccount(generatePrivateKey());
    await apiClient(server.url, launchedBundle.key).faucet(outsider.address, "1");
    const { route } = await buyToken(client, {
      account: outsider,
      ...contracts,
      token: tokenAddress,
      funds: parseEther("0.5"),
    });
    expect(route).toBe("curve");

    await expect
      .poll(
        async () => {
          await page.reload();
          await badge.waitFor();
          return badge.textContent();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toContain("DEX");

    await page.getByTestId("bundle-card").click();
    await page.getByTestId("wallet-row").first().waitFor();
    await page.getByRole("button", { name: "[select all]" }).first().click();
    await page
      .getByRole("region", { name: "Sell Tokens" })
      .getByRole("button", { name: "100%" })
      .click();
    await page.getByRole("button", { name: "[sell tokens]" }).click();

    const dialog = page.getByTestId("tx-progress");
    await dialog.waitFor();
    await expect
      .poll(
        () =>
          dialog
            .getByTestId("tx-row")
            .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-status"))),
        { timeout: 60_000, interval: 500 },
      )
      .toSatisfy(
        (statuses: (string | null)[]) =>
          statuses.length >= wallets.length && statuses.every((status) => status === "success"),
      );

    for (const wallet of wallets) {
      const left = await client.readContract({
        address: tokenAddress,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [wallet.address],
      });
      expect(left).toBe(0n);
    }
    // Every sell went to the router (approvals to the token): none to the closed curve.
    const hashes = await dialog
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")?.split("/").at(-1)));
    const targets = await Promise.all(
      hashes.map(async (hash) => (await client.getTransaction({ hash: hash as `0x${string}` })).to),
    );
    const lower = targets.map((to) => to?.toLowerCase());
    expect(lower).toContain(contracts.router.toLowerCase());
    expect(lower).not.toContain(contracts.launchpad.toLowerCase());
  });
});

/** Tokens (18 decimals) to 4 decimals, rounded down, with thousands separators: as the page shows them. */
const tokensShown = (units: bigint) =>
  `${new Intl.NumberFormat("en-US").format(units / 10n ** 18n)}.${((units % 10n ** 18n) / 10n ** 14n).toString().padStart(4, "0")}`;

describe("a tax token", () => {
  // A 5% tax token (create guide §3.4's first example of shares) with 3 bundle wallets.
  test.override("draftInput", () => {
    const draft = payableDraft("Tax Cat", "TAXC", { wallets: 3 });
    return {
      ...draft,
      tokenInfo: {
        ...draft.tokenInfo,
        tokenTaxInfo: {
          feeRate: 5,
          burnRate: 20,
          divideRate: 30,
          liquidityRate: 40,
          recipientRate: 10,
          recipientAddress: privateKeyToAccount(generatePrivateKey()).address,
          minSharing: 100000,
        },
      },
    };
  });

  test("launches, graduates, sells half of one wallet through the DEX with a floor, and the P&L's tax for that wallet is the tax the chain took, to the wei", async ({
    page,
    server,
    api,
    launchedBundle,
  }) => {
    const { tokenAddress, wallets } = launchedBundle;
    const contracts = contractsOf(server.dataDir);
    const client = createPublicClient({ transport: http(server.rpcUrl) });
    const seller = wallets[0]?.address as Address;

    // Someone else buys the rest of the curve: the token moves to its DEX pair, where it is taxed.
    const outsider = privateKeyToAccount(generatePrivateKey());
    await apiClient(server.url, launchedBundle.key).faucet(outsider.address, "1");
    await buyToken(client, {
      account: outsider,
      ...contracts,
      token: tokenAddress,
      funds: parseEther("0.5"),
    });

    await page.goto(`${server.url}/wallets/${tokenAddress}`);
    await page.getByTestId("wallet-row").first().waitFor();
    await page.getByRole("checkbox", { name: `Select ${seller}` }).check();
    const sellPanel = page.getByRole("region", { name: "Sell Tokens" });
    await sellPanel.getByRole("button", { name: "50%" }).click();
    await sellPanel.getByRole("button", { name: "[sell tokens]" }).click();
    const statuses = await finishedRows(page);
    expect(statuses.every((status) => status === "success")).toBe(true);
    const dialog = page.getByTestId("tx-progress");
    const sale = dialog.getByTestId("tx-row").filter({ hasText: /sell [\d,]/ });
    expect(await sale.getByTestId("tx-floor").textContent()).toMatch(
      /^gets at least \d+\.\d{4} BNB$/,
    );
    const hash = (await sale.locator("a[data-tx-hash]").getAttribute("data-tx-hash")) as Hash;

    // The tax the chain took: the tokens the sale moved from the seller to the token itself.
    const receipt = await client.getTransactionReceipt({ hash });
    const taxed = parseEventLogs({
      abi: erc20Abi,
      eventName: "Transfer",
      logs: receipt.logs,
    }).filter(
      (log) =>
        isAddressEqual(log.address, tokenAddress) &&
        isAddressEqual(log.args.from, seller) &&
        isAddressEqual(log.args.to, tokenAddress),
    );
    const chainTax = taxed.reduce((sum, log) => sum + log.args.value, 0n);
    expect(chainTax).toBeGreaterThan(0n);

    await expect
      .poll(
        async () => {
          const pnl = await api.get<{ wallets: { address: string; taxTokens: string }[] }>(
            `/api/bundle/pnl?address=${tokenAddress}`,
          );
          return pnl.wallets.find((w) => isAddressEqual(w.address as Address, seller))?.taxTokens;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(chainTax.toString());
    await page.getByRole("button", { name: "[close]" }).click();
    const pnlPanel = page.getByRole("region", { name: "Profit & Loss" });
    const row = pnlPanel
      .getByTestId("pnl-wallet-row")
      .filter({ hasText: `${seller.slice(0, 6)}…${seller.slice(-4)}` });
    await expect
      .poll(() => row.getByTestId("pnl-wallet-tax").textContent(), {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(tokensShown(chainTax));
    expect(await pnlPanel.getByTestId("pnl-tax-token").textContent()).toMatch(
      /^Tax token: 5% of each PancakeSwap buy and sell\. Its recipient 0x[0-9a-fA-F]{40} has earned \d+\.\d{4} WBNB, its holders \d+\.\d{4} WBNB\.$/,
    );
  });
});
