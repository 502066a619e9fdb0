/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Bumper, type BumperCosts, bumperPlan } from "@bundler/shared";
import type { Page } from "playwright-core";
import { type Address, createPublicClient, formatEther, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Api } from "./support/api.ts";
import { describe, expect, test } from "./support/fixtures.ts";

// A bumper "minute" lasts 2 s here: a 1-minute interval bumps every 2 s.
test.override("serverEnv", { BUMPER_MINUTE_SECONDS: "2" });

const SHOTS = "/tmp/bumper-shots";

const shoot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  // From the top: scrolled, the sticky menu would be drawn over the middle of a full-page shot.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
};

const chain = (rpcUrl: string) => createPublicClient({ transport: http(rpcUrl) });

/** /tools, then the Bumper card's link, as a user gets there. */
const openBumper = async (page: Page, url: string) => {
  await page.goto(`${url}/tools`);
  await page.getByRole("link", { name: "[open bumper]" }).click();
  // The bumper's page is a lazy route (its chunk carries the chart library): the address bar
  // changes once that chunk has loaded, which took over 30 s once on a loaded 2-core machine.
  await page.waitForURL("**/tools/bumper", { timeout: 60_000 });
  await page.getByRole("button", { name: "Generate bumper" }).waitFor();
};

/** Fills the config form (units stay minutes). */
const fillForm = async (
  page: Page,
  settings: { token: Address; interval: string; duration: string; buySize: string },
) => {
  await page.getByLabel("Token address").fill(settings.token);
  await page.getByLabel("Interval", { exact: true }).fill(settings.interval);
  await page.getByLabel("Duration", { exact: true }).fill(settings.duration);
  await page.getByLabel("Buy size").fill(settings.buySize);
};

/** Generates from the filled form; waits for the success banner; answers the bumper's address. */
const generateBumper = async (page: Page) => {
  await page.getByRole("button", { name: "Generate bumper" }).click();
  await expect
    .poll(() => page.getByTestId("success-banner").textContent(), { timeout: 30_000 })
    .toContain("Bumper generated successfully! Send funds to the bumper address to get started.");
  await page.getByTestId("bumper-address").waitFor();
  return ((await page.getByTestId("bumper-address").textContent()) ?? "").trim() as Address;
};

/** The wallet card's faucet button, until the card says the balance is enough. */
const fundFromFaucet = async (page: Page) => {
  expect(await page.getByTestId("bumper-funding").textContent()).toMatch(/^Need [\d.]+ more BNB$/);
  await page.getByRole("button", { name: "[fund from faucet]" }).click();
  await expect
    .poll(() => page.getByTestId("bumper-funding").textContent(), { timeout: 30_000 })
    .toBe("Sufficient balance");
};

const startBumper = async (page: Page) => {
  const start = page.getByRole("button", { name: "Start bumper" });
  await expect.poll(() => start.isEnabled(), { timeout: 15_000 }).toBe(true);
  await start.click();
  await expect
    .poll(() => page.getByTestId("success-banner").textContent(), { timeout: 30_000 })
    .toContain("Bumper started successfully!");
};

/** "n / total" as the stats panel shows it. */
const bumpsShown = async (page: Page) =>
  ((await page.getByTestId("stat-bumps").textContent()) ?? "").replace(/\s+/g, " ").trim();

/** The bumper as the server answers it (the one of this user for `token`). */
const bumperOf = async (api: Api, token: Address): Promise<Bumper> => {
  const { bumpers } = await api.get<{ bumpers: Bumper[] }>("/api/bumper/user");
  const bumper = bumpers.find((b) => b.targetToken.toLowerCase() === token.toLowerCase());
  if (!bumper) throw new Error(`no bumper for ${token}`);
  return bumper;
};

/**
 * Withdraws to a fresh receiver from the form; answers the receiver and the amount the banner
 * says it sent, as wei.
 */
const withdrawToFreshReceiver = async (page: Page) => {
  const receiver = privateKeyToAccount(generatePrivateKey()).address;
  await page.getByLabel("Receiver address").fill(receiver);
  await page.getByRole("button", { name: "Withdraw funds" }).click();
  const banner = page.getByTestId("success-banner");
  await expect
    .poll(() => banner.textContent(), { timeout: 90_000, interval: 500 })
    .toContain(`BNB to ${receiver}`);
  const text = (await banner.textContent()) ?? "";
  const amount = /Successfully withdrew ([\d.]+) BNB to /.exec(text)?.[1];
  if (!amount) throw new Error(`no amount in "${text}"`);
  // The receiver clears once the BNB left.
  expect(await page.getByLabel("Receiver address").inputValue()).toBe("");
  return { receiver, shown: parseEther(amount) };
};

/** The page shows 4 decimals, rounded: the chain's amount is within half of the last one. */
const HALF_A_DISPLAY_UNIT = 5n * 10n ** 13n;

describe("the bumper", () => {
  test("bumps a launched token three times, completes, and withdraws to a receiver", async ({
    page,
    server,
    api,
    launchedBundle,
    browser,
  }) => {
    const client = chain(server.rpcUrl);
    await openBumper(page, server.url);
    await page.getByText("No active bumpers found.").waitFor();

    await fillForm(page, {
      token: launchedBundle.tokenAddress,
      interval: "1",
      duration: "3",
      buySize: "0.01",
    });
    // The plan counts each bump's builder tip, gas at today's price and trading fees.
    const { costs } = await api.get<{ costs: BumperCosts }>("/api/bumper/costs");
    const plan = bumperPlan(parseEther("0.01"), 3, costs);
    await expect
      .poll(() => page.getByTestId("bumper-plan").textContent(), { timeout: 15_000 })
      .toBe(`3 bumps · fund ${formatEther(plan.required)} BNB`);
    expect(await page.getByTestId("bumper-plan-parts").textContent()).toContain("builder tip");
    const address = await generateBumper(page);
    // Fields lock once the bumper exists.
    expect(await page.getByLabel("Token address").isDisabled()).toBe(true);
    expect(await bumpsShown(page)).toBe("0 / 3");

    // Funded with exactly what the card asks for (the plan): every bump has what it needs.
    await fundFromFaucet(page);
    expect(await client.getBalance({ address })).toBe(plan.required);
    await startBumper(page);

    // The page reads the bumper again every 10 s while it runs: the first read after a bump
    // (on a fast machine that read may already see all three).
    await expect
      .poll(() => bumpsShown(page), { timeout: 60_000, interval: 500 })
      .toMatch(/^[123] \/ 3$/);
    await shoot(page, "1-mid-run");

    const completed = page.getByTestId("completed-banner");
    await completed.waitFor({ timeout: 90_000 });
    expect(await completed.textContent()).toBe(
      "This bumper has completed all 3 configured bumps. Create a new bumper to continue.",
    );
    expect(await bumpsShown(page)).toBe("3 / 3");
    expect(await page.getByTestId("stat-next").textContent()).toBe("—");
    // Once complete it can no longer start, and it sits under the Completed tab.
    expect(await page.getByRole("button", { name: "Start bumper" }).isDisabled()).toBe(true);
    await expect
      .poll(() => page.getByRole("tab", { name: /Completed/ }).textContent(), { timeout: 15_000 })
      .toContain("1");

    // The chart has a bar for each bump; four wallets were used (each sell moves to a new one).
    const chart = page.getByTestId("bumps-chart");
    await chart.waitFor({ timeout: 15_000 });
    await expect
      .poll(() => chart.locator(".recharts-bar-rectangle").count(), { timeout: 15_000 })
      .toBe(3);
    const rows = page.getByTestId("bumper-wallet-row");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(4);
    await page.getByText("Wallets Used (4)").waitFor();
    await shoot(page, "2-completed");

    // The server agrees, and the gas and volume are counted.
    const bumper = await bumperOf(api, launchedBundle.tokenAddress);
    expect(bumper).toMatchObject({ status: "completed", bumpsCompleted: 3, totalBumps: 3 });
    expect(Number(bumper.volume)).toBeGreaterThan(0);
    expect(Number(bumper.gasSpent)).toBeGreaterThan(0);

    const wallets = (await rows
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => link.getAttribute("title")))) as Address[];
    expect(wallets).toHaveLength(4);
    expect(wallets[0]).toBe(address);
    const held = (
      await Promise.all(wallets.map((wallet) => client.getBalance({ address: wallet })))
    ).reduce((sum, wei) => sum + wei, 0n);
    expect(held).toBeGreaterThan(0n);

    const { receiver, shown } = await withdrawToFreshReceiver(page);
    const received = await client.getBalance({ address: receiver });
    expect(received).toBeGreaterThan(0n);
    expect(received).toBeLessThan(held);
    const diff = received > shown ? received - shown : shown - received;
    expect(diff).toBeLessThanOrEqual(HALF_A_DISPLAY_UNIT);
    // Every wallet the bumper used is empty to the wei.
    for (const wallet of wallets) expect(await client.getBalance({ address: wallet })).toBe(0n);
    await expect
      .poll(() => page.getByTestId("bumper-balance").textContent(), { timeout: 15_000 })
      .toBe("0.0000 BNB");
    // Completed, it cannot start again: the card asks for no more BNB.
    expect(await page.getByTestId("bumper-funding").count()).toBe(0);
    expect(await page.getByRole("button", { name: "[fund from faucet]" }).count()).toBe(0);
    await shoot(page, "3-withdrawn");
    expect(browser.errors).toEqual([]);
  }, 300_000);

  test("stops after a bump: no further bump lands, and the rest is withdrawn", async ({
    page,
    server,
    api,
    launchedBundle,
  }) => {
    const client = chain(server.rpcUrl);
    await openBumper(page, server.url);
    // A 10-minute interval is 20 s here: time to see the first bump and stop before the next.
    await fillForm(page, {
      token: launchedBundle.tokenAddress,
      interval: "10",
      duration: "50",
      buySize: "0.01",
    });
    const address = await generateBumper(page);
    expect(await bumpsShown(page)).toBe("0 / 5");
    await fundFromFaucet(page);
    await startBumper(page);

    await expect.poll(() => bumpsShown(page), { timeout: 60_000, interval: 500 }).toBe("1 / 5");
    await page.getByRole("button", { name: "Stop bumper" }).click();
    await expect
      .poll(() => page.getByTestId("success-banner").textContent(), { timeout: 30_000 })
      .toContain("Bumper stopped successfully!");
    await page.getByRole("button", { name: "Start bumper" }).waitFor();
    await shoot(page, "4-stopped");

    const stopped = await bumperOf(api, launchedBundle.tokenAddress);
    expect(stopped).toMatchObject({ status: "stopped", active: false, nextBumpAt: null });
    // Stopped, it is listed under Completed, not under Active.
    const completedTab = page.getByRole("tab", { name: /^Completed/ });
    await completedTab.click();
    await page.getByTestId("bumper-row").filter({ hasText: "stopped" }).waitFor();
    await page.getByRole("tab", { name: /^Active/ }).click();
    await page.getByText("No active bumpers found.").waitFor();
    // Longer than an interval (20 s): nothing more is bumped.
    const from = await client.getBlockNumber();
    await new Promise((resolve) => setTimeout(resolve, 25_000));
    expect(await client.getBlockNumber()).toBeGreaterThan(from + 5n);
    const later = await bumperOf(api, launchedBundle.tokenAddress);
    expect(later.bumpsCompleted).toBe(stopped.bumpsCompleted);
    expect(later.status).toBe("stopped");
    await page.reload();
    await page.getByRole("tab", { name: /^Completed/ }).click();
    await page.getByTestId("bumper-row").filter({ hasText: "stopped" }).click();
    await expect
      .poll(() => bumpsShown(page), { timeout: 15_000 })
      .toBe(`${stopped.bumpsCompleted} / 5`);
    expect(await page.getByTestId("stat-next").textContent()).toBe("—");
    await page.getByRole("button", { name: "Start bumper" }).waitFor();

    const { receiver, shown } = await withdrawToFreshReceiver(page);
    const received = await client.getBalance({ address: receiver });
    expect(received).toBeGreaterThan(0n);
    const diff = received > shown ? received - shown : shown - received;
    expect(diff).toBeLessThanOrEqual(HALF_A_DISPLAY_UNIT);
    expect(await client.getBalance({ address })).toBe(0n);
  }, 300_000);

  test("refuses a buy size under 0.001 BNB before asking the server", async ({
    page,
    server,
    api,
    key: _key,
  }) => {
    await openBumper(page, server.url);
    await fillForm(page, {
      token: privateKeyToAccount(generatePrivateKey()).address,
      interval: "1",
      duration: "3",
      buySize: "0.0005",
    });
    await page.getByRole("button", { name: "Generate bumper" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent(), { timeout: 15_000 })
      .toBe("Buy size must be at least 0.001 BNB");
    const { bumpers } = await api.get<{ bumpers: Bumper[] }>("/api/bumper/user");
    expect(bumpers).toEqual([]);
  }, 60_000);
});
