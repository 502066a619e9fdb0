/// <reference lib="dom" />
import { createPublicClient, http } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openBrowser, type TestBrowser } from "./support/browser.ts";
import { getFreeAccess, tinyPng } from "./support/flows.ts";
import { type RunningServer, startServer } from "./support/server.ts";

let server: RunningServer;
let browser: TestBrowser;

beforeAll(async () => {
  server = await startServer({ env: { LAUNCH_FEE_BNB: "0.5" } });
});
afterAll(() => server.stop());
beforeEach(async () => {
  browser = await openBrowser();
});
afterEach(() => browser.close());

describe("a launch on the local chain, as a new user does it", () => {
  it("goes from a free key to a token whose buys all share the create's block", async () => {
    const { page } = browser;
    const key = await getFreeAccess(page, server.url);

    await page.getByLabel("Token name").fill("Moon Cat");
    await page.getByLabel("Ticker").fill("MCAT");
    await page.getByLabel("Description").fill("A cat that goes to the moon.");
    await page
      .getByLabel("Logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: tinyPng });

    await page.getByRole("button", { name: "[generate new wallet]" }).click();
    await page.getByRole("button", { name: "[copy]" }).click();
    await page.getByRole("button", { name: "Close" }).click();

    await page.getByLabel("Number of wallets").fill("5");
    await page
      .getByRole("group", { name: "Buy unit" })
      .getByRole("button", { name: "BNB" })
      .click();
    await page.getByLabel("Min buy").fill("0.01");
    await page.getByLabel("Max buy").fill("0.02");
    await page.getByRole("button", { name: "Generate Wallets" }).click();

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download Wallets" }).click();
    expect((await download).suggestedFilename()).toMatch(/\.json$/);
    await page.getByRole("button", { name: "[close]" }).click();

    await page.getByRole("button", { name: "[fund all]" }).click();
    await page.getByRole("button", { name: "Pay Now" }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Pay Now" }).click();

    await page.waitForURL(/\/drafts/);
    await page.getByTestId("payment-dialog").waitFor();
    await page.getByRole("button", { name: "[pay from faucet]" }).click();
    await page.getByTestId("payment-confirmed").waitFor({ timeout: 30_000 });
    await page.getByTestId("payment-dialog").waitFor({ state: "hidden", timeout: 10_000 });

    await page.getByRole("button", { name: "Execute Launch" }).click();
    await page.getByRole("button", { name: "[launch]" }).click();
    const terminal = page.getByTestId("bundle-terminal");
    await terminal.waitFor();
    await terminal.getByText("Launch complete").waitFor({ timeout: 60_000 });
    expect(await terminal.getByTestId("terminal-line").count()).toBeGreaterThan(2);

    const response = await fetch(`${server.url}/api/draft/list`, {
      headers: { "x-auth-key": key },
    });
    const { drafts } = (await response.json()) as {
      drafts: Array<{
        status: string;
        launch: { tokenAddress: `0x${string}`; blockNumber: string } | null;
      }>;
    };
    const launched = drafts.find((draft) => draft.status === "executed");
    expect(launched?.launch?.tokenAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const client = createPublicClient({ transport: http(server.rpcUrl) });
    expect(await client.getCode({ address: launched?.launch?.tokenAddress ?? "0x" })).not.toBe(
      "0x",
    );
    const block = await client.getBlock({
      blockNumber: BigInt(launched?.launch?.blockNumber ?? "0"),
    });
    // The create, five buys and the tip.
    expect(block.transactions).toHaveLength(7);
  });
});
