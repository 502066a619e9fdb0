import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { advance, settle } from "../../../testing/render.tsx";
import { sellTx, txHash, walletAddress } from "../../../testing/wallets-handlers.ts";
import {
  progressDialog as dialog,
  loadCharts,
  loadPage,
  panel,
  postHandler,
  press,
  statusServer,
} from "./bundle-detail-test-utils.tsx";

beforeAll(loadCharts);
beforeEach(() => {
  vi.useFakeTimers();
});

const SLIPPAGE_PROBLEM =
  "Slippage must be a percent from 0.1 to 50, with at most one decimal (e.g. 5 or 2.5).";

const sold = (transactions = [sellTx(walletAddress(1), txHash(1))], bundles = 1) =>
  postHandler("/api/bundle/wallets/sell", () =>
    HttpResponse.json({ success: true, bundles, totalTokens: "1", transactions }),
  );

const typeSlippage = (scope: HTMLElement, value: string) =>
  fireEvent.change(within(scope).getByLabelText("Slippage %"), { target: { value } });

describe("a sell's slippage and route", () => {
  it("starts at 5% in a private bundle, and sends that as 500 basis points", async () => {
    await loadPage();
    const bodies = sold();
    statusServer(() => ({ status: "pending", reason: null }));
    const sellPanel = panel("Sell Tokens");
    expect((within(sellPanel).getByLabelText("Slippage %") as HTMLInputElement).value).toBe("5");
    expect(
      (
        within(sellPanel).getByRole("radio", {
          name: "Private bundle (default)",
        }) as HTMLInputElement
      ).checked,
    ).toBe(true);

    press("[select all]");
    press("50%", sellPanel);
    press("[sell tokens]");
    await settle();

    expect(bodies).toMatchObject([{ slippageBps: 500, route: "bundle" }]);
  });

  it("sends the slippage typed, in basis points, and the public route when chosen", async () => {
    await loadPage();
    const bodies = sold();
    statusServer(() => ({ status: "pending", reason: null }));
    const sellPanel = panel("Sell Tokens");

    typeSlippage(sellPanel, "2.5");
    fireEvent.click(within(sellPanel).getByRole("radio", { name: "Public mempool" }));
    press("[select all]");
    press("25%", sellPanel);
    press("[sell tokens]");
    await settle();

    expect(bodies).toMatchObject([
      { amount: "25", isPercentage: true, slippageBps: 250, route: "public" },
    ]);
  });

  it.each(["0.05", "60", "2.55", "abc", ""])(
    "refuses a slippage of %j with a sentence and sends nothing",
    async (bad) => {
      await loadPage();
      const bodies = sold();
      const sellPanel = panel("Sell Tokens");
      press("[select all]");
      press("50%", sellPanel);

      typeSlippage(sellPanel, bad);
      expect(within(sellPanel).getByRole("alert").textContent).toBe(SLIPPAGE_PROBLEM);
      expect(within(sellPanel).getByLabelText("Slippage %").getAttribute("aria-invalid")).toBe(
        "true",
      );
      const sell = within(sellPanel).getByRole("button", {
        name: "[sell tokens]",
      }) as HTMLButtonElement;
      expect(sell.disabled).toBe(true);
      fireEvent.click(sell);
      await settle();

      expect(bodies).toEqual([]);
      expect(dialog()).toBeNull();
    },
  );

  it("takes the slippage back once it is valid again", async () => {
    await loadPage();
    const sellPanel = panel("Sell Tokens");
    typeSlippage(sellPanel, "51");
    expect(within(sellPanel).queryByRole("alert")).not.toBeNull();
    typeSlippage(sellPanel, "50");
    expect(within(sellPanel).queryByRole("alert")).toBeNull();
  });

  it("sends the developer panel's own slippage and route", async () => {
    await loadPage();
    const bodies = postHandler("/api/bundle/developer/sell", () =>
      HttpResponse.json({
        success: true,
        bundles: 0,
        transaction: sellTx(walletAddress(9), txHash(8), { route: "public" }),
        transactions: [],
      }),
    );
    statusServer(() => ({ status: "pending", reason: null }));
    const developerPanel = panel("Sell Developer Tokens");

    typeSlippage(developerPanel, "0.1");
    fireEvent.click(within(developerPanel).getByRole("radio", { name: "Public mempool" }));
    press("100%", developerPanel);
    press("[sell developer tokens]");
    await settle();

    expect(bodies).toMatchObject([
      { amount: "100", isPercentage: true, slippageBps: 10, route: "public" },
    ]);
    // The wallets' panel keeps its own.
    expect(
      (within(panel("Sell Tokens")).getByLabelText("Slippage %") as HTMLInputElement).value,
    ).toBe("5");
  });
});

describe("the progress dialog of a sell with a floor", () => {
  it("shows each transaction's route and each sale's floor to 4 decimals, as what the wallet gets at least after the launchpad's fee", async () => {
    await loadPage();
    sold([
      sellTx(walletAddress(1), txHash(3), { kind: "approve", amount: "0" }),
      sellTx(walletAddress(1), txHash(1), { minOut: "0.123456789" }),
      sellTx(walletAddress(3), txHash(2), { route: "public", minOut: "0.00004" }),
    ]);
    statusServer(() => ({ status: "pending", reason: null }));

    press("[select all]");
    press("50%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();

    const rows = within(dialog() as HTMLElement).getAllByTestId("tx-row");
    expect(rows.map((row) => within(row).queryByTestId("tx-floor")?.textContent ?? null)).toEqual([
      null,
      "gets at least 0.1235 BNB",
      "gets at least 0.0000 BNB",
    ]);
    expect(within(rows[1] as HTMLElement).getByTestId("tx-floor").title).toBe(
      "The least this sale pays the wallet, after the launchpad's fee: it reverts rather than pay less",
    );
    expect(rows.map((row) => within(row).getByTestId("tx-route").textContent)).toEqual([
      "via private bundle",
      "via private bundle",
      "via public mempool",
    ]);
    // One bundle is not worth a line.
    expect(screen.queryByTestId("tx-bundles")).toBeNull();
  });

  it("says how many bundles the sells went out in when they were split", async () => {
    await loadPage();
    sold([sellTx(walletAddress(1), txHash(1)), sellTx(walletAddress(3), txHash(2))], 2);
    statusServer(() => ({ status: "pending", reason: null }));

    press("[select all]");
    press("100%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();

    expect(screen.getByTestId("tx-bundles").textContent).toBe(
      "Sent privately in 2 bundles, for consecutive blocks.",
    );
  });

  it("shows why a sale reverted at its floor, as the server says it", async () => {
    await loadPage();
    sold([sellTx(walletAddress(1), txHash(1))]);
    const reason =
      "The floor was not met: the sale would fetch 0.0081 BNB, less than its floor of 0.0095 BNB";
    statusServer(() => ({ status: "failed", reason }));

    press("[select all]");
    press("100%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();
    await advance(3_000);

    expect(within(dialog() as HTMLElement).getByTestId("tx-reason").textContent).toBe(reason);
  });
});
