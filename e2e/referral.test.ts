/// <reference lib="dom" />
import type { ReferralInfo } from "@bundler/shared";
import { createPublicClient, formatEther, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { apiClient, until } from "./support/api.ts";
import { openBrowser } from "./support/browser.ts";
import { describe, expect, test } from "./support/fixtures.ts";
import { continueToApp, logInWithKey } from "./support/flows.ts";
import { shooter } from "./support/shots.ts";

const shoot = shooter("/tmp/referral-shots");

describe("the referral program in the browser", () => {
  test("a referred visitor buys a key, the referrer claims the reward and an admin pays it", async ({
    page: referrer,
    server,
    key: referrerKey,
    api,
  }) => {
    // The referrer opens /referral from the menu and makes a code.
    await referrer.getByRole("link", { name: "[referral]" }).click();
    await referrer.waitForURL(`${server.url}/referral`);
    await referrer.getByRole("textbox", { name: "Custom code" }).fill("e2e_cats");
    await referrer.getByRole("button", { name: "Create Code" }).click();
    // Success toasts last 2 s; the component tests read them, here the page's state is enough.
    await referrer.getByTestId("referral-code").waitFor();
    expect(await referrer.getByTestId("referral-code").textContent()).toBe("e2e_cats");
    const link = (await referrer.getByTestId("referral-link").textContent()) ?? "";
    expect(link).toBe(`${server.url}?referral=e2e_cats`);
    await shoot(referrer, "referral-new-code");

    // A visitor follows the link, buys a key at the discount and pays it from the faucet.
    const visitorBrowser = await openBrowser();
    const visitor = visitorBrowser.page;
    try {
      await visitor.goto(link);
      await expect
        .poll(() => visitor.evaluate(() => localStorage.getItem("referralCode")), {
          timeout: 15_000,
        })
        .toBe("e2e_cats");
      await expect
        .poll(() => visitor.getByTestId("key-offer-price").textContent(), { timeout: 15_000 })
        .toBe("$4.00 $3.40");
      await visitor.getByRole("button", { name: /Buy Access Key/ }).click();
      await visitor.getByTestId("payment-address").waitFor();
      expect(await visitor.getByTestId("key-discount").textContent()).toBe("−$0.60");
      expect(await visitor.getByTestId("key-total").textContent()).toMatch(
        /^\$3\.40 = [\d.]+ BNB$/,
      );
      await shoot(visitor, "buy-key-dialog");
      // The local faucet takes visitors without a key.
      await visitor.getByRole("button", { name: "[pay from faucet]" }).click();
      const boughtKey = await visitor.getByTestId("generated-key").textContent({ timeout: 60_000 });

      expect(boughtKey).toMatch(/^lbk_/);
      await continueToApp(visitor);
      expect(await visitor.getByRole("link", { name: "[bundler]" }).isVisible()).toBe(true);
      expect(await visitor.evaluate(() => localStorage.getItem("keyPurchase"))).toBeNull();
    } finally {
      await visitorBrowser.close();
    }

    // The referrer sees one use and the reward ($0.40 in BNB at the payment's rate).
    const info = await until("the reward", async () => {
      const now = await api.get<ReferralInfo>("/api/auth/referral/info");
      return now.uses === 1 && Number(now.earned) > 0 ? now : undefined;
    });
    expect(Number(info.earned)).toBeCloseTo(0.4 / 600, 12);
    await referrer.getByRole("button", { name: "[refresh]" }).click();
    await expect.poll(() => referrer.getByTestId("referral-uses").textContent()).toBe("1");
    expect(await referrer.getByTestId("referral-earned").textContent()).toBe("0.0007 BNB");

    // It claims everything to a fresh address.
    const receiver = privateKeyToAccount(generatePrivateKey()).address;
    await referrer.getByRole("textbox", { name: "Receiving address" }).fill(receiver);
    await referrer.getByRole("button", { name: "Claim Rewards" }).click();
    await referrer.getByRole("button", { name: "Claim Pending" }).waitFor();
    expect(await referrer.getByRole("button", { name: "Claim Pending" }).isDisabled()).toBe(true);
    expect(await referrer.getByTestId("claim-status").textContent()).toBe("pending");
    await shoot(referrer, "referral-claim-pending");

    // A superadmin completes it from the dashboard's pending claims.
    const adminBrowser = await openBrowser();
    const admin = adminBrowser.page;
    try {
      await logInWithKey(admin, server.url, server.superadminKey ?? "");
      await admin.goto(`${server.url}/admin`);
      const row = admin.getByTestId("admin-claim-row");
      await row.waitFor();
      expect(await row.textContent()).toContain(referrerKey.slice(0, 6));
      await row.getByRole("button", { name: "[complete]" }).click();
      await admin.getByRole("button", { name: "[send]" }).click();
      await admin.getByText("No claims are waiting.").waitFor({ timeout: 60_000 });
      await shoot(admin, "admin-dashboard-after-claim");
    } finally {
      await adminBrowser.close();
    }

    // The referrer sees it completed, with the payout's hash, and the BNB arrived.
    await referrer.getByRole("button", { name: "[refresh]" }).click();
    await expect.poll(() => referrer.getByTestId("claim-status").textContent()).toBe("completed");
    const hashLink = referrer.getByTestId("claim-row").locator("a[data-tx-hash]");
    const hash = await hashLink.getAttribute("data-tx-hash");
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await hashLink.getAttribute("href")).toBe(`/tx/${hash}`);
    const chain = createPublicClient({ transport: http(server.rpcUrl) });
    const receipt = await chain.getTransactionReceipt({ hash: hash as `0x${string}` });
    expect(receipt.status).toBe("success");
    expect(formatEther(await chain.getBalance({ address: receiver }))).toBe(
      formatEther(parseEther(info.earned)),
    );
    expect(await referrer.getByRole("button", { name: "Claim Rewards" }).isDisabled()).toBe(true);
    await shoot(referrer, "referral-claim-completed");
  });

  test("a free key taken through a referral link counts as a use", async ({ page, server }) => {
    const owner = apiClient(server.url, server.superadminKey);
    await owner.post("/api/auth/referral/create", { code: "free_cats" }).catch(() => undefined);
    const before = await owner.get<ReferralInfo>("/api/auth/referral/info");

    await page.goto(`${server.url}/drafts?referral=free_cats`);
    await page.getByRole("button", { name: "Get Free Access" }).click();
    await page.getByTestId("generated-key").waitFor();
    await continueToApp(page);

    const after = await owner.get<ReferralInfo>("/api/auth/referral/info");
    expect(after.code).toBe("free_cats");
    expect(after.uses).toBe(before.uses + 1);
  });

  test("a key purchase survives a reload and can be cancelled", async ({ page, server }) => {
    await page.goto(server.url);
    await page.getByRole("button", { name: /Buy Access Key/ }).click();
    const first = await page.getByTestId("payment-address").textContent();
    expect(first).toMatch(/^0x[0-9a-fA-F]{40}$/);

    await page.reload();
    await expect.poll(() => page.getByTestId("payment-address").textContent()).toBe(first);

    await page.getByRole("button", { name: "[cancel]" }).click();
    await page.getByRole("button", { name: "Get Free Access" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("keyPurchase"))).toBeNull();

    await page.getByRole("button", { name: /Buy Access Key/ }).click();
    await page.getByTestId("payment-address").waitFor();
    expect(await page.getByTestId("payment-address").textContent()).not.toBe(first);
  });
});
