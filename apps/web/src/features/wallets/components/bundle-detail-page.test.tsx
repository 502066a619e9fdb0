import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bundleFixture,
  DEVELOPER,
  walletAddress,
  walletBalance,
} from "../../../testing/wallets-handlers.ts";
import {
  fourWallets,
  panel,
  renderBundlePage,
  stubResizeObserver,
} from "./bundle-detail-test-utils.tsx";

beforeAll(stubResizeObserver);

const rows = () => screen.getAllByTestId("wallet-row").map((row) => row.dataset.address);
const count = () => screen.getByTestId("selection-count").textContent;
const button = (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement;

describe("a bundle's page", () => {
  it("shows the token with its links and a way back; the explorer link needs an explorer", async () => {
    const bundle = bundleFixture({
      graduated: true,
      tradeUrl: "https://pancakeswap.finance/swap?outputCurrency=0xaAaA",
    });
    renderBundlePage(() => ({ ...fourWallets(), bundle }), { explorerUrl: "https://bscscan.com/" });

    expect(await screen.findByRole("heading", { name: "$MCAT" })).toBeTruthy();
    expect(screen.getByTestId("token-address").textContent).toBe(bundle.address);
    const links = within(screen.getByRole("navigation", { name: "Token links" }));
    expect(links.getByRole("link", { name: "[explorer]" }).getAttribute("href")).toBe(
      `https://bscscan.com/token/${bundle.address}`,
    );
    expect(links.getByRole("link", { name: "[launchpad page]" }).getAttribute("href")).toBe(
      bundle.launchpadUrl,
    );
    expect(links.getByRole("link", { name: "[trade]" }).getAttribute("href")).toBe(bundle.tradeUrl);
    expect(screen.getByTestId("bundle-badge").textContent).toBe("DEX");

    await userEvent.click(screen.getByRole("link", { name: "[back]" }));
    expect(await screen.findByText("bundle list")).toBeTruthy();
  });

  it("links no explorer on a chain without one: the app's own address pages instead", async () => {
    const { address } = bundleFixture();
    renderBundlePage();
    await screen.findByRole("heading", { name: "$MCAT" });
    expect(screen.queryByRole("link", { name: "[explorer]" })).toBeNull();
    expect(screen.queryByRole("link", { name: "[trade]" })).toBeNull();
    const links = within(screen.getByRole("navigation", { name: "Token links" }));
    expect(links.getByRole("link", { name: "[address page]" }).getAttribute("href")).toBe(
      `/address/${address}`,
    );
    const row = screen.getAllByTestId("wallet-row")[0] as HTMLElement;
    expect(within(row).getByRole("link").getAttribute("href")).toBe(`/address/${walletAddress(1)}`);
    const developer = within(screen.getByTestId("developer-address")).getByRole("link");
    expect(developer.getAttribute("href")).toBe(`/address/${DEVELOPER}`);
  });

  it("links wallet and developer addresses to the explorer when there is one", async () => {
    renderBundlePage(fourWallets, { explorerUrl: "https://bscscan.com" });
    const row = (await screen.findAllByTestId("wallet-row"))[0] as HTMLElement;
    expect(within(row).getByRole("link").getAttribute("href")).toBe(
      `https://bscscan.com/address/${walletAddress(1)}`,
    );
    expect(
      within(screen.getByTestId("developer-address")).getByRole("link").getAttribute("href"),
    ).toBe(`https://bscscan.com/address/${DEVELOPER}`);
  });

  it("does not toggle a wallet when its address link is clicked", async () => {
    renderBundlePage();
    const row = (await screen.findAllByTestId("wallet-row"))[0] as HTMLElement;
    const before = row.getAttribute("aria-selected");
    within(row)
      .getByRole("link")
      .addEventListener("click", (e) => e.preventDefault());
    await userEvent.click(within(row).getByRole("link"));
    expect(row.getAttribute("aria-selected")).toBe(before);
    await userEvent.click(row);
    expect(row.getAttribute("aria-selected")).not.toBe(before);
  });

  it("says so when the bundle is not the caller's", async () => {
    renderBundlePage(undefined, {
      handlers: [
        http.get("/api/bundle/wallets/balances", () =>
          HttpResponse.json({ success: false, error: "Bundle not found" }, { status: 404 }),
        ),
      ],
    });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("No bundle of yours launched this token.");
    expect(within(alert).getByRole("link", { name: "[back]" }).getAttribute("href")).toBe(
      "/wallets",
    );
  });

  it("refuses a path that is not a token address without asking the server", async () => {
    const { balances } = renderBundlePage(undefined, { address: "0x1234" });
    expect((await screen.findByRole("alert")).textContent).toContain("Not a token address.");
    expect(balances.calls).toBe(0);
  });

  it("sums the bundle: total tokens in the ticker, BNB to 4 decimals, active wallets", async () => {
    renderBundlePage();

    expect((await screen.findByTestId("overview-tokens")).textContent).toBe("45,000,000 MCAT");
    expect(screen.getByTestId("overview-bnb").textContent).toBe("0.5025 BNB");
    expect(screen.getByTestId("overview-active").textContent).toBe("3 / 4");
  });

  it("calls the total a count of tokens held, with no decimals on a large count, and what they would fetch beside it", async () => {
    renderBundlePage();

    expect((await screen.findByTestId("overview-tokens-label")).textContent).toBe(
      "Total Value (tokens held)",
    );
    expect(screen.getByTestId("overview-tokens").textContent).toBe("45,000,000 MCAT");
    // The P&L's exit simulation for the bundle's wallets (#1 and #3: 0.15 BNB each).
    await waitFor(() =>
      expect(screen.getByTestId("overview-tokens-bnb").textContent).toBe(
        "≈ 0.3000 BNB if sold now",
      ),
    );
  });

  it("searches by address and sorts by token balance both ways", async () => {
    renderBundlePage();
    await screen.findAllByTestId("wallet-row");
    expect(rows()).toEqual([1, 2, 3, 4].map(walletAddress));

    const sort = screen.getByRole("combobox", { name: "Sort by token balance" });
    await userEvent.selectOptions(sort, "desc");
    expect(rows()).toEqual([1, 3, 4, 2].map(walletAddress));
    await userEvent.selectOptions(sort, "asc");
    expect(rows()).toEqual([2, 4, 3, 1].map(walletAddress));

    await userEvent.type(
      screen.getByRole("textbox", { name: "Search wallets by address" }),
      "0003",
    );
    expect(rows()).toEqual([walletAddress(3)]);
  });

  it("selects with the shortcuts and counts 'x of n wallets selected'", async () => {
    renderBundlePage();
    await screen.findAllByTestId("wallet-row");
    expect(count()).toBe("0 of 4 wallets selected");

    await userEvent.click(button("[non-empty]"));
    expect(count()).toBe("3 of 4 wallets selected");
    const selected = () =>
      screen
        .getAllByTestId("wallet-row")
        .filter((row) => row.getAttribute("aria-selected") === "true")
        .map((row) => row.dataset.address);
    expect(selected()).toEqual([1, 3, 4].map(walletAddress));

    await userEvent.click(button("[has BNB]"));
    expect(selected()).toEqual([1, 3].map(walletAddress));

    await userEvent.click(button("[select all]"));
    expect(count()).toBe("4 of 4 wallets selected");
    await userEvent.click(button("[clear]"));
    expect(count()).toBe("0 of 4 wallets selected");

    await userEvent.click(screen.getByRole("checkbox", { name: `Select ${walletAddress(2)}` }));
    expect(selected()).toEqual([walletAddress(2)]);
    await userEvent.click(screen.getAllByTestId("wallet-row")[0] as HTMLElement);
    expect(count()).toBe("2 of 4 wallets selected");
  });

  it("keeps the wallet list within 400 px, scrolling", async () => {
    renderBundlePage();
    const list = await screen.findByTestId("wallet-list");
    expect(list.className).toContain("max-h-[400px]");
    expect(list.className).toContain("overflow-y-auto");
  });

  it("enables [sell tokens] only with wallets selected and an amount", async () => {
    renderBundlePage();
    await screen.findAllByTestId("wallet-row");
    const sell = () => button("[sell tokens]");
    expect(sell().disabled).toBe(true);

    await userEvent.type(screen.getByRole("textbox", { name: "Sell amount" }), "1000");
    expect(sell().disabled).toBe(true);
    await userEvent.click(button("[select all]"));
    expect(sell().disabled).toBe(false);
    await userEvent.clear(screen.getByRole("textbox", { name: "Sell amount" }));
    expect(sell().disabled).toBe(true);
    await userEvent.type(screen.getByRole("textbox", { name: "Sell amount" }), "0");
    expect(sell().disabled).toBe(true);
  });

  it("ignores a negative amount and a percent above 100; 25/50/75/100% pick a percent", async () => {
    renderBundlePage();
    await screen.findAllByTestId("wallet-row");
    const sell = within(panel("Sell Tokens"));
    const input = sell.getByRole("textbox", { name: "Sell amount" }) as HTMLInputElement;
    const control = (name: string) => sell.getByRole("button", { name });

    await userEvent.type(input, "-5");
    expect(input.value).toBe("5");

    await userEvent.click(control("75%"));
    expect(input.value).toBe("75");
    expect(control("%").getAttribute("aria-pressed")).toBe("true");
    await userEvent.clear(input);
    await userEvent.type(input, "101");
    expect(input.value).toBe("10");
    await userEvent.clear(input);
    await userEvent.type(input, "100.5");
    expect(input.value).toBe("100.");

    await userEvent.click(control("tokens"));
    await userEvent.clear(input);
    await userEvent.type(input, "5000");
    expect(input.value).toBe("5000");
    await userEvent.click(control("%"));
    expect(input.value).toBe("");
  });

  it("enables [empty selected wallets] only with wallets selected and a valid receiver", async () => {
    renderBundlePage();
    await screen.findAllByTestId("wallet-row");
    const empty = () => button("[empty selected wallets]");
    const receiver = screen.getByRole("textbox", { name: "Receiver address" });
    expect(empty().disabled).toBe(true);

    await userEvent.type(receiver, `0x${"e".repeat(40)}`);
    expect(empty().disabled).toBe(true);
    await userEvent.click(button("[has BNB]"));
    expect(empty().disabled).toBe(false);
    await userEvent.type(receiver, "9");
    expect(empty().disabled).toBe(true);
    expect(screen.getByText("Invalid address format")).toBeTruthy();
  });

  it("shows the developer's panel with its balances; its sell needs only an amount", async () => {
    renderBundlePage();
    expect((await screen.findByTestId("developer-address")).textContent).toBe(DEVELOPER);
    expect(screen.getByTestId("developer-tokens").textContent).toBe("20,000,000.0000 MCAT");
    expect(screen.getByTestId("developer-bnb").textContent).toBe("1.2500 BNB");
    const sell = button("[sell developer tokens]");
    expect(sell.disabled).toBe(true);
    await userEvent.type(screen.getByRole("textbox", { name: "Developer sell amount" }), "10");
    expect(sell.disabled).toBe(false);
  });

  it("hides the developer's panel when the developer holds no tokens, or there is none", async () => {
    renderBundlePage(() => ({
      ...fourWallets(),
      developerBalance: walletBalance(DEVELOPER, 0n, "3"),
    }));
    await screen.findAllByTestId("wallet-row");
    expect(screen.queryByText("Sell Developer Tokens")).toBeNull();
  });

  it("hides the developer's panel when the bundle has no developer", async () => {
    renderBundlePage(() => ({ ...fourWallets(), developerBalance: null }));
    await screen.findAllByTestId("wallet-row");
    expect(screen.queryByText("Sell Developer Tokens")).toBeNull();
  });

  it("draws the supply chart with each wallet's share and the bundle's", async () => {
    renderBundlePage();
    const chart = await screen.findByTestId("supply-chart");
    expect(screen.getByTestId("bundle-share").textContent).toBe("4.5000%");
    expect(screen.getByTestId("developer-share").textContent).toBe("2.0000%");
    // Wallets 1, 3 and 4 hold tokens, and the developer: four bars.
    await waitFor(() => expect(chart.querySelectorAll(".recharts-bar-rectangle").length).toBe(4));
    expect(chart.querySelector("svg")).not.toBeNull();
  });
});
