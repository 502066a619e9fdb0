import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { pnlFixture, pnlHandlers, pnlTotals, pnlWei } from "../../../testing/pnl-handlers.ts";
import { advance, settle, toastTexts } from "../../../testing/render.tsx";
import { bundleFixture, sellTx, txHash, walletAddress } from "../../../testing/wallets-handlers.ts";
import {
  failure,
  KEY,
  loadCharts,
  loadPage,
  panel,
  postHandler,
  press,
  renderBundlePage,
  statusServer,
} from "./bundle-detail-test-utils.tsx";

beforeAll(loadCharts);

// The download's spies go with their test: files that run after this one share its globals.
afterEach(() => {
  vi.restoreAllMocks();
});

const pnlPanel = () => panel("Profit & Loss");
const findPnlPanel = () => screen.findByRole("region", { name: "#Profit & Loss" });
const figure = (key: string) => screen.getByTestId(`pnl-${key}`).textContent;
const usd = (key: string) => screen.getByTestId(`pnl-${key}-usd`).textContent;

describe("the bundle's P&L panel", () => {
  it("shows cost, proceeds, realized, mark, exit and unrealized on exit in BNB to 4 decimals and in USD", async () => {
    renderBundlePage();
    await screen.findByTestId("pnl-costWei");

    expect([figure("costWei"), usd("costWei")]).toEqual(["1.2345 BNB", "$740.70"]);
    expect([figure("proceedsWei"), usd("proceedsWei")]).toEqual(["0.5000 BNB", "$300.00"]);
    expect([figure("realizedWei"), usd("realizedWei")]).toEqual(["+0.1000 BNB", "$60.00"]);
    expect([figure("markWei"), usd("markWei")]).toEqual(["0.9000 BNB", "$540.00"]);
    expect([figure("exitWei"), usd("exitWei")]).toEqual(["0.8000 BNB", "$480.00"]);
    expect([figure("unrealizedExitWei"), usd("unrealizedExitWei")]).toEqual([
      "-0.0500 BNB",
      "-$30.00",
    ]);
    expect(screen.queryByTestId("pnl-emptiedWei")).toBeNull();
    expect(screen.getByTestId("pnl-as-of").textContent).toBe("As of block 40, at $600.00 per BNB.");
  });

  it("for a tax token, says its rate and what the launch's recipient and holders have earned, and each wallet's tax in tokens", async () => {
    const recipient = "0x1234567890123456789012345678901234567890";
    const base = pnlFixture();
    const { handlers } = pnlHandlers({
      answer: () => ({
        ...base,
        taxToken: {
          feeRate: 500,
          recipient,
          recipientEarnedWei: pnlWei("0.0123"),
          holdersEarnedWei: pnlWei("0.5"),
        },
        wallets: base.wallets.map((w, i) =>
          i === 1 ? { ...w, taxTokens: (52_631n * 10n ** 18n).toString() } : w,
        ),
      }),
    });
    renderBundlePage(undefined, { handlers });
    expect((await screen.findByTestId("pnl-tax-token")).textContent).toBe(
      `Tax token: 5% of each PancakeSwap buy and sell. Its recipient ${recipient} has earned 0.0123 WBNB, its holders 0.5000 WBNB.`,
    );
    expect(screen.getAllByTestId("pnl-wallet-tax").map((cell) => cell.textContent)).toEqual([
      "0.0000",
      "52,631.0000",
      "0.0000",
    ]);
  });

  it("says nothing of tax for a plain token", async () => {
    renderBundlePage();
    await screen.findByTestId("pnl-costWei");
    expect(screen.queryByTestId("pnl-tax-token")).toBeNull();
  });

  it("shows what empties sent back only once they did", async () => {
    const { handlers } = pnlHandlers({
      answer: () => pnlFixture({ totals: pnlTotals({ emptiedWei: pnlWei("0.25") }) }),
    });
    renderBundlePage(undefined, { handlers });
    expect((await screen.findByTestId("pnl-emptiedWei")).textContent).toBe("0.2500 BNB");
  });

  it("shows BNB alone when the server has no price", async () => {
    const { handlers } = pnlHandlers({ answer: () => pnlFixture({ bnbUsd: null }) });
    renderBundlePage(undefined, { handlers });
    expect((await screen.findByTestId("pnl-costWei")).textContent).toBe("1.2345 BNB");
    expect(screen.queryByTestId("pnl-costWei-usd")).toBeNull();
  });

  it("lists each wallet's own figures and flags the one whose balance drifted over 0.1%", async () => {
    renderBundlePage();
    const rows = await screen.findAllByTestId("pnl-wallet-row");
    const cells = (row: HTMLElement) =>
      Array.from((row as HTMLTableRowElement).cells, (cell) => cell.textContent);
    expect(rows.map(cells)).toEqual([
      ["0xdddd…dddd", "developer", "0.2000", "0.1000", "0.0000", "1,000,000.0000", "0.1500", "—"],
      ["0x0001…bbbb", "bundle", "0.2000", "0.1000", "0.0000", "1,000,000.0000", "0.1500", "ok"],
      [
        "0x0003…bbbb",
        "bundle",
        "0.2000",
        "0.1000",
        "0.0000",
        "1,000,000.0000",
        "0.1500",
        "⚠ 33.33%",
      ],
    ]);
    expect(within(pnlPanel()).getByRole("alert").textContent).toBe(
      "1 wallet's balance differs from the ledger by more than 0.1%: a transfer the app did not make.",
    );
  });

  it("lists what others paid for the bundle by kind, outside the wallets' rows", async () => {
    renderBundlePage();
    await screen.findAllByTestId("pnl-line");
    expect(screen.getAllByTestId("pnl-line").map((line) => line.textContent)).toEqual([
      "Creation fee0.0050 BNB · $3.00",
      "Builder tips (2)0.0020 BNB · $1.20",
      "Launch fee0.5000 BNB · $300.00",
    ]);
  });

  it("says a cost under 0.0001 BNB as < 0.0001 BNB, which agrees with its dollars", async () => {
    const gas = {
      kind: "gas" as const,
      role: "deployer" as const,
      address: null,
      wei: pnlWei("0.00002"),
      txHash: null,
      block: "12",
    };
    const { handlers } = pnlHandlers({ answer: () => pnlFixture({ lines: [gas] }) });
    renderBundlePage(undefined, { handlers });
    await screen.findAllByTestId("pnl-line");
    expect(screen.getAllByTestId("pnl-line").map((line) => line.textContent)).toEqual([
      "Gas paid by the deployer or tip payer< 0.0001 BNB · $0.01",
    ]);
  });

  it("explains what the Drift column says, in a line under the table and on each ok", async () => {
    renderBundlePage();
    await screen.findAllByTestId("pnl-wallet-row");
    expect(within(pnlPanel()).getByTestId("pnl-drift-legend").textContent).toBe(
      "Drift: whether the wallet's BNB on chain matches the ledger (its balance before the launch, less what it paid, plus its sales, less its empties). ok: within 0.1%; ⚠: off by more, a transfer the app did not make; …: a transaction of ours is on its way.",
    );
    expect(within(pnlPanel()).getByText("ok").getAttribute("title")).toBe(
      "The chain holds what the ledger says, within 0.1%.",
    );
  });

  it("draws cost, proceeds and exit value over the bundle's life", async () => {
    renderBundlePage();
    const chart = await screen.findByTestId("pnl-chart");
    await waitFor(() => expect(chart.querySelectorAll(".recharts-line").length).toBe(3));
  });
});

/** Spies on the download: the files saved and their names. */
function downloads() {
  const files: Blob[] = [];
  const names: string[] = [];
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
    files.push(blob as Blob);
    return "blob:csv";
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download);
  });
  return { files, names };
}

const textOf = (file: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(file);
  });

describe("the P&L's CSV", () => {
  it("downloads the ledger under the server's name, asked with the access key", async () => {
    const { files, names } = downloads();
    const { pnl } = renderBundlePage();
    await screen.findByTestId("pnl-costWei");

    fireEvent.click(within(pnlPanel()).getByRole("button", { name: "Download CSV" }));

    await waitFor(() => expect(files).toHaveLength(1));
    expect(pnl.csvRequests).toEqual([{ key: KEY, address: bundleFixture().address }]);
    expect(names).toEqual(["pnl-MCAT-0xAAaA000000000000000000000000000000000001.csv"]);
    expect(await textOf(files[0] as Blob)).toBe("block,time\n12,2026-01-01\n");
  });

  it("names the file itself when the server's name cannot be read", async () => {
    const { files, names } = downloads();
    const { handlers } = pnlHandlers({ csv: () => new HttpResponse("block\n") });
    renderBundlePage(undefined, { handlers });
    await screen.findByTestId("pnl-costWei");

    fireEvent.click(within(pnlPanel()).getByRole("button", { name: "Download CSV" }));

    await waitFor(() => expect(files).toHaveLength(1));
    expect(names).toEqual(["mcat-pnl-0xaaaa0000.csv"]);
  });

  it("says the download failed, then the server's reason", async () => {
    const { handlers } = pnlHandlers({ csv: () => failure("Ledger unavailable", 503) });
    renderBundlePage(undefined, { handlers });
    await screen.findByTestId("pnl-costWei");

    fireEvent.click(within(pnlPanel()).getByRole("button", { name: "Download CSV" }));

    await waitFor(() =>
      expect(toastTexts()).toContain(
        "Failed to download the P&L ledger, please try again.Ledger unavailable",
      ),
    );
  });
});

describe("the P&L panel's failures", () => {
  it("says why the P&L could not be read, and reads it again on [retry]", async () => {
    let broken = true;
    // Falls through to the page's P&L fixture once it answers undefined.
    const { pnl } = renderBundlePage(undefined, {
      handlers: [
        http.get("/api/bundle/pnl", () =>
          broken ? failure("The ledger is catching up with the chain", 503) : undefined,
        ),
      ],
    });
    const alert = await within(await findPnlPanel()).findByRole("alert");
    expect(alert.textContent).toContain("The ledger is catching up with the chain");

    broken = false;
    fireEvent.click(within(alert).getByRole("button", { name: "[retry]" }));
    expect((await screen.findByTestId("pnl-costWei")).textContent).toBe("1.2345 BNB");
    expect(pnl.calls.pnl).toBe(1);
  });
});

describe("the P&L over time", () => {
  it("reads the P&L again every minute, each reading a new point of the chart", async () => {
    vi.useFakeTimers();
    const page = await loadPage();
    await settle();
    expect(page.pnl.calls).toMatchObject({ pnl: 1, history: 1 });
    const chart = screen.getByTestId("pnl-chart");
    // Two ledger events and the first reading, three lines.
    expect(chart.querySelectorAll(".recharts-line-dot")).toHaveLength(9);

    await advance(59_000);
    expect(page.pnl.calls).toMatchObject({ pnl: 1, history: 1 });
    await advance(1_000);
    expect(page.pnl.calls).toMatchObject({ pnl: 2, history: 2 });
    expect(chart.querySelectorAll(".recharts-line-dot")).toHaveLength(12);
  });

  it("reads the P&L again once a sell's transactions have finished", async () => {
    vi.useFakeTimers();
    const page = await loadPage();
    await settle();
    postHandler("/api/bundle/wallets/sell", () =>
      HttpResponse.json({
        success: true,
        bundles: 1,
        totalTokens: "1",
        transactions: [sellTx(walletAddress(1), txHash(1))],
      }),
    );
    statusServer(() => ({ status: "success", reason: null }));

    press("[select all]");
    press("50%", panel("Sell Tokens"));
    press("[sell tokens]");
    await settle();
    expect(page.pnl.calls.pnl).toBe(1);
    await advance(3_000);
    await settle();

    expect(page.pnl.calls).toMatchObject({ pnl: 2, history: 2 });
  });
});
