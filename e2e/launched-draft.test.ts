import { describe, expect, test } from "./support/fixtures.ts";

// A draft that launched, opened again on the create page: read-only, never "Update Draft".
describe("a launched draft on the create page", () => {
  test("opens read-only with the block it launched in, also after a reload", async ({
    page,
    server,
    launchedBundle,
  }) => {
    const opened = `${server.url}/create?draft=${launchedBundle.draftId}`;
    const block = `Launched in block ${launchedBundle.blockNumber}`;
    await page.goto(opened);
    await page.getByText(block, { exact: true }).waitFor();
    await page.reload();
    await page.getByText(block, { exact: true }).waitFor();

    expect(await page.getByText("Edit Draft").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Update Draft" }).count()).toBe(0);
    expect(await page.getByText("Missing Funds (Go to Disperser)").count()).toBe(0);
    expect(await page.getByLabel("Token name").count()).toBe(0);
  });

  test("links the token and opens it in the wallet manager", async ({
    page,
    server,
    launchedBundle,
  }) => {
    await page.goto(`${server.url}/create?draft=${launchedBundle.draftId}`);
    const links = page.getByRole("navigation", { name: "Token links" });
    // The local chain has no explorer: the token's page is the app's own address page.
    expect(await links.getByRole("link", { name: "[address page]" }).getAttribute("href")).toBe(
      `/address/${launchedBundle.tokenAddress}`,
    );

    await links.getByRole("link", { name: "[open in wallet manager]" }).click();
    await page.waitForURL(`${server.url}/wallets/${launchedBundle.tokenAddress}`);
    await page
      .getByTestId("token-address")
      .getByText(new RegExp(launchedBundle.tokenAddress, "i"))
      .waitFor();
  });

  test("is reached from its card on the drafts page", async ({ page, server, launchedBundle }) => {
    await page.goto(`${server.url}/drafts`);
    const card = page.locator(`[data-draft-id="${launchedBundle.draftId}"]`);
    await card.getByRole("link", { name: "[view launch]" }).click();
    await page
      .getByText(`Launched in block ${launchedBundle.blockNumber}`, { exact: true })
      .waitFor();
  });
});
