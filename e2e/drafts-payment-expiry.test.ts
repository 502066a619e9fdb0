import { describe, expect, test } from "./support/fixtures.ts";
import { payableDraft } from "./support/flows.ts";

// An eight-second payment window, so a payment expires while the test watches.
test.override("serverEnv", { PAYMENT_WINDOW_SECONDS: "8" });

describe("a payment left unpaid", () => {
  test("expires when its countdown reaches zero", async ({ page, server, api }) => {
    const id = await api.createDraft(payableDraft("Too Late", "LATE"));

    await page.goto(`${server.url}/drafts`);
    await page
      .locator(`[data-draft-id="${id}"]`)
      .getByRole("button", { name: "Pay Now", exact: true })
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
