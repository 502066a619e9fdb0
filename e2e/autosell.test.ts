/// <reference lib="dom" />
import { readFileSync } from "node:fs";
import path from "node:path";
import { buyToken } from "@bundler/chain";
import type { AutosellRule } from "@bundler/shared";
import type { Page } from "playwright-core";
import { type Address, createPublicClient, type Hex, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { apiClient } from "./support/api.ts";
import { describe, expect, test } from "./support/fixtures.ts";
import { payableDraft } from "./support/flows.ts";
import { chainControl } from "./support/server.ts";

// Three wallets buying half a BNB each: the launch fee is a small part of the cost, so a stop
// loss at -50% is not met at the start.
test.override("draftInput", () => {
  const draft = payableDraft("Rule Cat", "RULE", { wallets: 3 });
  for (const wallet of draft.walletConfig.wallets) wallet.buyValue = "0.5";
  return draft;
});

const SHOT = "/tmp/autosell-rules.png";

const contractsOf = (dataDir: string) =>
  JSON.parse(readFileSync(path.join(dataDir, "chain", "deployment.json"), "utf8")).contracts as {
    launchpad: Address;
    helper: Address;
    router: Address;
    weth: Address;
  };

/** Arms the rule a preset fills, and waits until the list shows it armed. */
const armPreset = async (page: Page, preset: string, count: number) => {
  const panel = page.getByRole("region", { name: "Rules" });
  await panel.getByRole("button", { name: preset }).click();
  await panel.getByRole("button", { name: "Arm rule" }).click();
  await expect.poll(() => panel.getByTestId("rule").count(), { timeout: 15_000 }).toBe(count);
};

describe("auto-sell rules", () => {
  test("arms a sniper guard at 1 BNB and a stop loss at -50%, sees the guard fire when another account buys 1.2 BNB, its sales land in the next block and the P&L shows them", async ({
    page,
    server,
    launchedBundle,
  }) => {
    const { tokenAddress, key } = launchedBundle;
    const client = createPublicClient({ transport: http(server.rpcUrl), pollingInterval: 100 });
    await page.goto(`${server.url}/wallets/${tokenAddress}`);
    await page.getByTestId("wallet-row").first().waitFor();

    await armPreset(page, "Sniper guard", 1);
    await armPreset(page, "Stop loss -50%", 2);
    const panel = page.getByRole("region", { name: "Rules" });
    const states = panel.getByTestId("rule-state");
    // The live readings: each rule says its input at the last block.
    await expect
      .poll(() => panel.textContent(), { timeout: 20_000 })
      .toMatch(/outside buys 0\.0000 BNB net since launch, of 1 BNB/);
    await expect
      .poll(() => panel.textContent(), { timeout: 20_000 })
      .toMatch(/P&L on exit value [-+]\d+\.\d{2}% of -50\.00%/);
    expect(await states.allTextContents()).toEqual(["armed", "armed"]);

    // Someone else buys 1.2 BNB of the token. The toast shows for a few seconds: watch for it now.
    const toast = page.getByText(/^Rule fired: /).waitFor({ timeout: 40_000 });
    const outsider = privateKeyToAccount(generatePrivateKey());
    await apiClient(server.url, key).faucet(outsider.address, "2");
    const api = apiClient(server.url, key);
    const guardFiring = async () =>
      (
        await api.get<{ rules: AutosellRule[] }>(`/api/bundle/rules?address=${tokenAddress}`)
      ).rules.find((r) => r.state === "fired")?.firings[0];
    // The chain waits while the guard decides (a pass on a busy machine outlasts several 0.25 s
    // blocks): the buy's block is the head the guard reads, its sales land in the next one.
    const chainBlocks = chainControl(server);
    await chainBlocks.pause();
    let bought: bigint;
    try {
      const buying = buyToken(client, {
        account: outsider,
        ...contractsOf(server.dataDir),
        token: tokenAddress,
        funds: parseEther("1.2"),
      });
      await expect
        .poll(() => client.getTransactionCount({ address: outsider.address, blockTag: "pending" }))
        .toBe(1);
      await chainBlocks.mine();
      bought = (await client.getTransactionReceipt({ hash: (await buying).hash })).blockNumber;
      await expect.poll(async () => (await guardFiring())?.state, { timeout: 40_000 }).toBe("sent");
    } finally {
      await chainBlocks.resume();
    }

    // The guard fires: a toast, its state, and a firing with its transactions.
    await toast;
    await expect
      .poll(async () => (await states.allTextContents()).sort(), { timeout: 20_000 })
      .toEqual(["armed", "fired"]);
    await panel.getByTestId("rule-firing").first().waitFor();
    const sent = await guardFiring();
    expect(sent?.reading.conditions[0]?.text).toMatch(/^outside buys 1\.2000 BNB net/);
    expect(BigInt(sent?.block ?? 0)).toBe(bought);
    const receipts = await Promise.all(
      (sent?.transactions ?? []).map((tx) =>
        client.waitForTransactionReceipt({ hash: tx as Hex, timeout: 20_000 }),
      ),
    );
    expect(receipts.length).toBeGreaterThanOrEqual(3);
    expect(receipts.every((r) => r.status === "success")).toBe(true);
    const blocks = new Set(receipts.map((r) => r.blockNumber));
    expect(blocks.size).toBe(1);
    expect([...blocks]).toEqual([bought + 1n]);

    // The P&L shows the sales' proceeds (read again when the rule fired; should the ledger's
    // per-block pass come after that read, a reload reads it again).
    const proceeds = async () =>
      Number(
        /([\d.]+) BNB/.exec((await page.getByTestId("pnl-proceedsWei").textContent()) ?? "")?.[1] ??
          0,
      );
    for (let attempt = 0; (await proceeds()) <= 1 && attempt < 6; attempt++) {
      await page.waitForTimeout(5_000);
      if ((await proceeds()) > 1) break;
      await page.reload();
      await page.getByTestId("pnl-proceedsWei").waitFor({ timeout: 30_000 });
    }
    expect(await proceeds()).toBeGreaterThan(1);
    await page.screenshot({ path: SHOT, fullPage: true });
  });
});
