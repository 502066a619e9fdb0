/// <reference lib="dom" />
import { readFileSync } from "node:fs";
import path from "node:path";
import { buyToken } from "@bundler/chain";
import { type Address, createPublicClient, erc20Abi, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { apiClient } from "./support/api.ts";
import { describe, expect, test } from "./support/fixtures.ts";

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
