import { createPublicClient, erc20Abi, http } from "viem";
import { describe, expect, test } from "./support/fixtures.ts";
import { payableDraft } from "./support/flows.ts";

describe("the drafts page", () => {
  test("edits a draft's name and shows the new name in the grid", async ({ page, server, api }) => {
    const id = await api.createDraft(payableDraft("Old Name", "OLD"));

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

  test("pages eleven drafts nine to a page", async ({ page, server, api }) => {
    for (let n = 1; n <= 11; n++) {
      await api.createDraft(payableDraft(`Paged ${n}`, `PG${n}`));
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

  test("asks the server for one page at a time, without keys, and shows each logo from its URL", async ({
    page,
    server,
    api,
  }) => {
    const draft = payableDraft("Logo Cat", "LCAT");
    await api.createDraft(draft);

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

  test("cancels an open payment and puts the draft back to Draft", async ({
    page,
    server,
    api,
  }) => {
    const id = await api.createDraft(payableDraft("Cancel Me", "CNCL"));

    await page.goto(`${server.url}/drafts`);
    const card = page.locator(`[data-draft-id="${id}"]`);
    await card.getByRole("button", { name: "Pay Now", exact: true }).click();
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
    await card.getByRole("button", { name: "Pay Now", exact: true }).waitFor();
  });

  test("shows a launched draft as Launched, with the token it created", async ({
    page,
    server,
    launchedBundle,
  }) => {
    expect(launchedBundle.wallets).toHaveLength(3);
    await page.goto(`${server.url}/drafts`);
    const card = page.locator(`[data-draft-id="${launchedBundle.draftId}"]`);
    await card.getByTestId("draft-status").getByText("Launched", { exact: true }).waitFor();
    await card.getByText("Launch completed").waitFor();
    expect(await card.getByTestId("draft-token-address").textContent()).toContain(
      launchedBundle.tokenAddress,
    );
    // Every bundle wallet bought the token.
    const client = createPublicClient({ transport: http(server.rpcUrl) });
    for (const wallet of launchedBundle.wallets) {
      const held = await client.readContract({
        address: launchedBundle.tokenAddress,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [wallet.address],
      });
      expect(held).toBeGreaterThan(0n);
    }
  });

  test("lists every short wallet with what it lacks before the launch can be confirmed", async ({
    page,
    server,
    paidDraft,
  }) => {
    const executes: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && /\/execute$/.test(new URL(request.url()).pathname))
        executes.push(request.url());
    });
    await page.goto(`${server.url}/drafts`);
    const card = page.locator(`[data-draft-id="${paidDraft.id}"]`);
    await card.getByRole("button", { name: "Execute Launch", exact: true }).click();

    const confirm = page.getByTestId("confirm-dialog");
    const short = confirm.getByTestId("execute-shortfalls");
    // Nothing is funded: the deployer (who also pays the tip) and the three bundle wallets.
    await short
      .getByText("4 wallets do not hold enough BNB for this launch.", { exact: false })
      .waitFor();
    const rows = await short.getByRole("listitem").allTextContents();
    const wallets = [
      paidDraft.input.deployerWallet.address,
      ...paidDraft.input.walletConfig.wallets.map((w) => w.address),
    ];
    expect(rows).toHaveLength(4);
    for (const address of wallets) {
      const row = rows.find((text) => text.toLowerCase().includes(address.toLowerCase()));
      expect(row, address).toMatch(/lacks \d+\.\d{4} BNB$/);
    }
    expect(await confirm.getByRole("button", { name: "[launch]", exact: true }).isDisabled()).toBe(
      true,
    );
    await confirm.getByRole("button", { name: "[cancel]", exact: true }).click();
    expect(executes).toEqual([]);
  });
});
