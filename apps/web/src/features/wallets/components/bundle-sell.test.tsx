import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { server } from "../../../testing/msw-server.ts";
import { advance, settle, toastTexts } from "../../../testing/render.tsx";
import { sellTx, txHash, walletAddress, walletBalance } from "../../../testing/wallets-handlers.ts";
import {
  count,
  progressDialog as dialog,
  failure,
  fourWallets,
  loadPage,
  panel,
  postHandler,
  press,
  rowStatuses as statuses,
  statusServer,
  stubResizeObserver,
} from "./bundle-detail-test-utils.tsx";

beforeAll(async () => {
  stubResizeObserver();
  // The chart is lazily loaded; loading a module never finishes while time is fake.
  await import("./supply-chart.tsx");
});
beforeEach(() => {
  vi.useFakeTimers();
});

describe("selling from the bundle's wallets", () => {
  it("shows each transaction, polls only the pending ones every 3 s, then refetches balances", async () => {
    let answer = fourWallets();
    const page = await loadPage(() => answer);
    const sold = postHandler("/api/bundle/wallets/sell", () =>
      HttpResponse.json({
        success: true,
        bundles: 1,
        totalTokens: "22,500,000",
        transactions: [
          sellTx(walletAddress(1), txHash(3), { kind: "approve", amount: "0" }),
          sellTx(walletAddress(1), txHash(1)),
          sellTx(walletAddress(3), txHash(2)),
          sellTx(walletAddress(4), null, { error: "insufficient BNB for gas" }),
        ],
      }),
    );
    const polls = statusServer((hash, call) =>
      hash === txHash(2)
        ? call === 1
          ? { status: "pending", reason: null }
          : { status: "failed", reason: "execution reverted: PancakeRouter: EXPIRED" }
        : { status: "success", reason: null },
    );

    press("[non-empty]");
    press("50%", panel("Sell Tokens"));
    press("[sell tokens]");
    expect(dialog()).not.toBeNull();
    await settle();

    expect(sold).toEqual([
      {
        address: answer.bundle.address,
        wallets: [1, 3, 4].map(walletAddress),
        amount: "50",
        isPercentage: true,
        slippageBps: 500,
        route: "bundle",
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
    expect(statuses()).toEqual(["pending", "pending", "pending", "failed"]);
    expect(screen.getByText("insufficient BNB for gas")).toBeTruthy();
    expect(
      within(dialog() as HTMLElement)
        .getAllByRole("link")
        .map((link) => link.getAttribute("href")),
    ).toEqual([3, 1, 2].map((n) => `/tx/${txHash(n)}`));
    // After a sell the selection and the amount clear.
    expect(count()).toBe("0 of 4 wallets selected");
    expect(
      (within(panel("Sell Tokens")).getByLabelText("Sell amount") as HTMLInputElement).value,
    ).toBe("");

    answer = {
      ...answer,
      balances: answer.balances.map((w) => walletBalance(w.address, 0n, w.bnbBalance)),
    };
    await advance(2_900);
    expect(polls.asked).toEqual([]);
    await advance(100);
    expect(polls.asked).toEqual([[txHash(3), txHash(1), txHash(2)]]);
    expect(statuses()).toEqual(["success", "success", "pending", "failed"]);
    expect(page.balances.calls).toBe(1);

    await advance(3_000);
    expect(polls.asked).toEqual([[txHash(3), txHash(1), txHash(2)], [txHash(2)]]);
    expect(statuses()).toEqual(["success", "success", "failed", "failed"]);
    expect(screen.getByText("execution reverted: PancakeRouter: EXPIRED")).toBeTruthy();
    expect(screen.getByTestId("tx-summary").textContent).toBe("4 of 4 finished");

    // All finished: polling stops and the balances are read again.
    await settle();
    expect(page.balances.calls).toBe(2);
    await advance(9_000);
    expect(polls.asked).toHaveLength(2);

    // The chart keeps the shares from before the sell beside the new ones.
    expect(screen.getByTestId("bundle-share").textContent).toBe("0.0000% (before sell: 4.5000%)");
    expect(screen.getByTestId("overview-active").textContent).toBe("0 / 4");
  });

  it("stops polling when the dialog is closed, and refetches balances", async () => {
    const page = await loadPage();
    postHandler("/api/bundle/wallets/sell", () =>
      HttpResponse.json({
        success: true,
        bundles: 1,
        totalTokens: "1",
        transactions: [sellTx(walletAddress(1), txHash(1))],
      }),
    );
    const polls = statusServer(() => ({ status: "pending", reason: null }));

    press("[select all]");
    fireEvent.change(within(panel("Sell Tokens")).getByLabelText("Sell amount"), {
      target: { value: "1000" },
    });
    press("[sell tokens]");
    await settle();
    await advance(3_000);
    expect(polls.asked).toHaveLength(1);

    press("[close]");
    expect(dialog()).toBeNull();
    await settle();
    expect(page.balances.calls).toBe(2);
    await advance(12_000);
    expect(polls.asked).toHaveLength(1);
  });

  it("polls nothing for a sell answered after its dialog was closed, and refetches", async () => {
    const page = await loadPage();
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.post("/api/bundle/wallets/sell", async () => {
        await held;
        return HttpResponse.json({
          success: true,
          bundles: 1,
          totalTokens: "1",
          transactions: [sellTx(walletAddress(1), txHash(1))],
        });
      }),
    );
    const polls = statusServer(() => ({ status: "pending", reason: null }));

    press("[select all]");
    press("100%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();
    expect(screen.getByText("sending transactions...")).toBeTruthy();
    press("[close]");
    answer();
    await settle();
    await advance(9_000);

    expect(dialog()).toBeNull();
    expect(polls.asked).toEqual([]);
    expect(page.balances.calls).toBe(3);
  });

  it("says the spec's words, then the server's reason, and closes the dialog when the sell fails, keeping the selection", async () => {
    await loadPage();
    const reason = `Wallet ${walletAddress(1)} holds only 1,356,297.99 tokens, less than the 99,999,999,999 to sell`;
    postHandler("/api/bundle/wallets/sell", () => failure(reason, 400));

    press("[select all]");
    fireEvent.change(within(panel("Sell Tokens")).getByLabelText("Sell amount"), {
      target: { value: "99999999999" },
    });
    press("[sell tokens]");
    await settle();

    expect(dialog()).toBeNull();
    expect(toastTexts()).toContain(
      `Something went wrong with selling the tokens, please try again.${reason}`,
    );
    expect(count()).toBe("4 of 4 wallets selected");
  });

  it("says the spec's words, then the catalogue's, when no answer came", async () => {
    await loadPage();
    server.use(http.post("/api/bundle/wallets/sell", () => HttpResponse.error()));

    press("[select all]");
    press("25%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();

    expect(toastTexts()).toContain(
      "Something went wrong with selling the tokens, please try again.Connection Error - The server is currently offline",
    );
  });

  it("shows each sold amount to 4 decimals", async () => {
    await loadPage();
    postHandler("/api/bundle/wallets/sell", () =>
      HttpResponse.json({
        success: true,
        bundles: 1,
        totalTokens: "1,234.567891234567891234",
        transactions: [
          sellTx(walletAddress(1), txHash(1), { amount: "1,234.567891234567891234" }),
          sellTx(walletAddress(3), txHash(2), { amount: "7" }),
        ],
      }),
    );
    statusServer(() => ({ status: "pending", reason: null }));

    press("[non-empty]");
    press("50%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();

    expect(screen.getAllByTestId("tx-action").map((action) => action.textContent)).toEqual([
      "sell 1,234.5678",
      "sell 7.0000",
    ]);
  });

  it("writes each sold amount as the wallet table does, with 4 decimals", async () => {
    await loadPage();
    postHandler("/api/bundle/wallets/sell", () =>
      HttpResponse.json({
        success: true,
        bundles: 1,
        totalTokens: "14,902,465.224",
        transactions: [sellTx(walletAddress(1), txHash(1), { amount: "14,902,465.224" })],
      }),
    );
    statusServer(() => ({ status: "pending", reason: null }));

    press("[non-empty]");
    press("50%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();

    expect(screen.getByTestId("tx-action").textContent).toBe("sell 14,902,465.2240");
  });

  it("says in which block the sales landed, what they sold and fetched, and per sale its BNB against its floor", async () => {
    await loadPage();
    postHandler("/api/bundle/wallets/sell", () =>
      HttpResponse.json({
        success: true,
        bundles: 1,
        totalTokens: "3,000",
        transactions: [
          sellTx(walletAddress(1), txHash(3), { kind: "approve", amount: "0" }),
          sellTx(walletAddress(1), txHash(1), { amount: "1,000" }),
          sellTx(walletAddress(3), txHash(2), { amount: "2,000" }),
        ],
      }),
    );
    const TOKEN = 10n ** 18n;
    statusServer((hash) => ({
      status: "success",
      reason: null,
      blockNumber: "120",
      sale:
        hash === txHash(1)
          ? { tokens: (1_000n * TOKEN).toString(), bnb: "0.0101" }
          : hash === txHash(2)
            ? { tokens: (2_000n * TOKEN).toString(), bnb: "0.02049" }
            : null,
    }));

    press("[non-empty]");
    press("50%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();
    await advance(3_000);

    expect(screen.getByTestId("tx-summary").textContent).toBe("3 of 3 finished");
    expect(screen.getByTestId("tx-landed").textContent).toBe(
      "Landed in block 120: sold 3,000.0000 MCAT for 0.0306 BNB.",
    );
    expect(screen.getAllByTestId("tx-fetched").map((f) => f.textContent)).toEqual([
      "fetched 0.0101 BNB",
      "fetched 0.0205 BNB",
    ]);
    expect(screen.getAllByTestId("tx-floor").map((f) => f.textContent)).toEqual([
      "gets at least 0.0095 BNB",
      "gets at least 0.0095 BNB",
    ]);
    expect(screen.getAllByTestId("tx-block").map((b) => b.textContent)).toEqual([
      "block 120",
      "block 120",
      "block 120",
    ]);
  });

  it("names every block when the sales landed in more than one", async () => {
    await loadPage();
    postHandler("/api/bundle/wallets/sell", () =>
      HttpResponse.json({
        success: true,
        bundles: 2,
        totalTokens: "2,000",
        transactions: [sellTx(walletAddress(1), txHash(1)), sellTx(walletAddress(3), txHash(2))],
      }),
    );
    statusServer((hash) => ({
      status: "success",
      reason: null,
      blockNumber: hash === txHash(1) ? "120" : "121",
      sale: { tokens: (1_000n * 10n ** 18n).toString(), bnb: "0.01" },
    }));

    press("[non-empty]");
    press("50%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();
    await advance(3_000);

    expect(screen.getByTestId("tx-landed").textContent).toBe(
      "Landed in blocks 120 and 121: sold 2,000.0000 MCAT for 0.0200 BNB.",
    );
  });
});

describe("selling the developer's tokens", () => {
  it("sends the amount and lists the approval and the sell", async () => {
    await loadPage();
    const sold = postHandler("/api/bundle/developer/sell", () =>
      HttpResponse.json({
        success: true,
        bundles: 1,
        transaction: sellTx(walletAddress(9), txHash(8)),
        transactions: [sellTx(walletAddress(9), txHash(7), { kind: "approve", amount: "0" })],
      }),
    );
    const polls = statusServer(() => ({ status: "success", reason: null }));

    fireEvent.change(
      within(panel("Sell Developer Tokens")).getByLabelText("Developer sell amount"),
      {
        target: { value: "1000000" },
      },
    );
    press("[sell developer tokens]");
    await settle();

    expect(sold).toEqual([
      {
        address: fourWallets().bundle.address,
        amount: "1000000",
        isPercentage: false,
        slippageBps: 500,
        route: "bundle",
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
    expect(statuses()).toEqual(["pending", "pending"]);
    await advance(3_000);
    expect(polls.asked).toEqual([[txHash(7), txHash(8)]]);
    expect(statuses()).toEqual(["success", "success"]);
    expect(
      (
        within(panel("Sell Developer Tokens")).getByLabelText(
          "Developer sell amount",
        ) as HTMLInputElement
      ).value,
    ).toBe("");
  });

  it("says the spec's words, then the server's reason, and closes the dialog when it fails", async () => {
    await loadPage();
    postHandler("/api/bundle/developer/sell", () =>
      failure("This bundle has no developer wallet", 404),
    );

    press("100%", panel("Sell Developer Tokens"));
    press("[sell developer tokens]");
    await settle();

    expect(dialog()).toBeNull();
    expect(toastTexts()).toContain(
      "Something went wrong with selling developer tokens, please try again.This bundle has no developer wallet",
    );
  });
});

describe("the sell amount's empty field", () => {
  it("shows an example, not a value that looks typed in", async () => {
    await loadPage();
    const input = within(panel("Sell Tokens")).getByLabelText("Sell amount");
    expect(input.getAttribute("placeholder")).toBe("e.g. 1000000");
    press("25%", panel("Sell Tokens"));
    fireEvent.change(input, { target: { value: "" } });
    expect(input.getAttribute("placeholder")).toBe("e.g. 50");
  });
});
