import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openBrowser, type TestBrowser } from "./support/browser.ts";
import { createDraft, getFreeAccess, payableDraft } from "./support/flows.ts";
import { type RunningServer, startServer } from "./support/server.ts";

let server: RunningServer;
let browser: TestBrowser;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());
beforeEach(async () => {
  browser = await openBrowser();
});
afterEach(() => browser.close());

describe("the drafts page", () => {
  it("edits a draft's name and shows the new name in the grid", async () => {
    const { page } = browser;
    const key = await getFreeAccess(page, server.url);
    const id = await createDraft(server.url, key, payableDraft("Old Name", "OLD"));

    await page.goto(`${server.url}/drafts`);
    const card = page.locator(`[data-draft-id="${id}"]`);
    await card.getByRole("link", { name: "[edit]" }).click();
    await page.waitForURL(new RegExp(`/create\\?draft=${id}`));
    await page.getByRole("link", { name: "[back to drafts]" }).waitFor();

    const name = page.getByLabel("Token name");
    await expect.poll(() => name.inputValue()).toBe("Old Name");
    await name.fill("New Name");
    await page.getByRole("button", { name: "Update Draft", exact: true }).click();

    await page.waitForURL(/\/drafts$/);
    await page.getByText("Draft updated").waitFor();
    await card.getByRole("heading", { name: "New Name" }).waitFor();
    expect(await page.getByTestId("draft-card").count()).toBe(1);
  });

  it("pages eleven drafts nine to a page", async () => {
    const { page } = browser;
    const key = await getFreeAccess(page, server.url);
    for (let n = 1; n <= 11; n++) {
      await createDraft(server.url, key, payableDraft(`Paged ${n}`, `PG${n}`));
    }

    await page.goto(`${server.url}/drafts`);
    const cards = page.getByTestId("draft-card");
    await cards.first().waitFor();
    expect(await cards.count()).toBe(9);
    await page.getByText("Showing 1-9 of 11").waitFor();

    await page.getByRole("button", { name: "[next]", exact: true }).click();
    await page.getByText("Showing 10-11 of 11").waitFor();
    expect(await cards.count()).toBe(2);
    expect(await page.getByRole("button", { name: "Page 2" }).getAttribute("aria-current")).toBe(
      "page",
    );
    expect(new URL(page.url()).search).toBe("?page=2");

    // The page is in the URL: a reload stays on it.
    await page.reload();
    await page.getByText("Showing 10-11 of 11").waitFor();
    expect(await cards.count()).toBe(2);

    await page.getByRole("button", { name: "[prev]", exact: true }).click();
    await page.getByText("Showing 1-9 of 11").waitFor();
    expect(await cards.count()).toBe(9);
  });

  it("asks the server for one page at a time, without keys, and shows each logo from its URL", async () => {
    const { page } = browser;
    const key = await getFreeAccess(page, server.url);
    const draft = payableDraft("Logo Cat", "LCAT");
    await createDraft(server.url, key, draft);

    const listed = page.waitForResponse((r) => r.url().includes("/api/draft/list"));
    await page.goto(`${server.url}/drafts`);
    const answer = await listed;
    expect(new URL(answer.url()).searchParams.get("page")).toBe("1");
    const body = await answer.text();
    expect(body).not.toContain(draft.deployerWallet.privateKey.slice(2));
    expect(body).not.toContain(draft.walletConfig.wallets[0]?.privateKey.slice(2));
    expect(body).not.toContain("data:image");

    const logo = page.getByTestId("draft-card").getByTestId("draft-image");
    await logo.waitFor();
    expect(await logo.getAttribute("src")).toMatch(/^\/api\/draft\/logo\/[0-9a-f]{64}$/);
    // Loaded without the key header, under the page's content security policy.
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
  });

  it("cancels an open payment and puts the draft back to Draft", async () => {
    const { page } = browser;
    const key = await getFreeAccess(page, server.url);
    const id = await createDraft(server.url, key, payableDraft("Cancel Me", "CNCL"));

    await page.goto(`${server.url}/drafts`);
    const card = page.locator(`[data-draft-id="${id}"]`);
    await card.getByRole("button", { name: "Pay", exact: true }).click();
    const dialog = page.getByTestId("payment-dialog");
    await dialog.getByTestId("payment-countdown").waitFor();
    await dialog.getByRole("button", { name: "[close]", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });

    await page.locator(`[data-draft-id="${id}"][data-status="pending_payment"]`).waitFor();
    expect(await card.getByTestId("draft-status").textContent()).toBe("Pending");
    await card.getByRole("button", { name: "Resume Payment", exact: true }).waitFor();

    await card.getByRole("button", { name: "[cancel payment]", exact: true }).click();
    const confirm = page.getByTestId("confirm-dialog");
    await confirm.getByText("Are you sure you want to cancel this payment?").waitFor();
    await confirm.getByRole("button", { name: "[confirm]", exact: true }).click();

    await page.getByText("Payment cancelled").waitFor();
    await page.locator(`[data-draft-id="${id}"][data-status="draft"]`).waitFor();
    expect(await card.getByTestId("draft-status").textContent()).toBe("Draft");
    await card.getByRole("button", { name: "Pay", exact: true }).waitFor();
  });
});

describe("a payment left unpaid", () => {
  let shortWindow: RunningServer;
  beforeAll(async () => {
    shortWindow = await startServer({ env: { PAYMENT_WINDOW_SECONDS: "8" } });
  });
  afterAll(() => shortWindow.stop());

  it("expires when its countdown reaches zero", async () => {
    const { page } = browser;
    const key = await getFreeAccess(page, shortWindow.url);
    const id = await createDraft(shortWindow.url, key, payableDraft("Too Late", "LATE"));

    await page.goto(`${shortWindow.url}/drafts`);
    await page
      .locator(`[data-draft-id="${id}"]`)
      .getByRole("button", { name: "Pay", exact: true })
      .click();
    const dialog = page.getByTestId("payment-dialog");
    const countdown = dialog.getByTestId("payment-countdown");
    await countdown.waitFor();
    // The window is eight seconds, so the countdown starts well below ten minutes.
    expect(await countdown.textContent()).toMatch(/^0:0[0-8]$/);

    await dialog.getByTestId("payment-expired").waitFor({ timeout: 20_000 });
    await page.getByText("Payment expired", { exact: true }).waitFor();
    await countdown.waitFor({ state: "hidden" });
  });
});
