import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { builderStatsFixture, builderStatsHandler } from "../../../testing/builders-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { LocationProbe, renderInApp } from "../../../testing/render.tsx";
import {
  bundleFixture,
  bundleList,
  bundlesListHandler,
} from "../../../testing/wallets-handlers.ts";
import { WalletsPage } from "./wallets-page.tsx";

const KEY = "lbk_test_key";
const BUILDER_STATS = "/api/bundle/builders/stats";

// Nothing sent in 7 days unless a test says otherwise: the builders' panel stays away.
beforeEach(() => {
  server.use(
    builderStatsHandler(BUILDER_STATS, [
      { hours: 24, bundles: 0, landed: 0, builders: [] },
      { hours: 168, bundles: 0, landed: 0, builders: [] },
    ]),
  );
});

function renderPage(bundles: () => ReturnType<typeof bundleList>, route = "/wallets") {
  const list = bundlesListHandler(bundles);
  server.use(list.handler);
  renderInApp(
    <>
      <WalletsPage />
      <LocationProbe />
    </>,
    { route, authKey: KEY },
  );
  return list;
}

const cards = () => screen.queryAllByTestId("bundle-card");
const tickers = () => cards().map((card) => within(card).getByRole("heading").textContent);
const location = () => screen.getByTestId("location").textContent;

describe("the wallet manager's bundle list", () => {
  it("shows 'Your Token Bundles' and three skeletons while the first page loads", async () => {
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get("/api/auth/bundles", async () => {
        await held;
        return HttpResponse.json({ success: true, bundles: [], total: 0, page: 1, pageSize: 9 });
      }),
    );
    renderInApp(<WalletsPage />, { route: "/wallets", authKey: KEY });

    expect(screen.getByText("Your Token Bundles")).toBeTruthy();
    expect(screen.getAllByTestId("bundle-skeleton")).toHaveLength(3);
    answer();
    await screen.findByTestId("bundles-empty");
    expect(screen.queryAllByTestId("bundle-skeleton")).toHaveLength(0);
  });

  it("pages nine at a time in three columns, the page kept in the URL", async () => {
    const all = bundleList(11);
    const list = renderPage(() => all);

    await screen.findByText("Showing 1-9 of 11");
    expect(tickers()).toEqual(all.slice(0, 9).map((b) => `$${b.ticker}`));
    expect(screen.getByTestId("bundles-grid").className).toContain("lg:grid-cols-3");

    await userEvent.click(screen.getByRole("button", { name: "[next]" }));
    await screen.findByText("Showing 10-11 of 11");
    expect(tickers()).toEqual(["$T10", "$T11"]);
    expect(location()).toBe("/wallets?page=2");
    expect(list.asked).toEqual([1, 2]);

    await userEvent.click(screen.getByRole("button", { name: "[prev]" }));
    await screen.findByText("Showing 1-9 of 11");
    expect(location()).toBe("/wallets");
    await userEvent.click(screen.getByRole("button", { name: "Page 2" }));
    await screen.findByText("Showing 10-11 of 11");
  });

  it("opens the page the URL names, and the last page when it is past the end", async () => {
    const list = renderPage(() => bundleList(11), "/wallets?page=7");

    await screen.findByText("Showing 10-11 of 11");
    expect(list.asked).toEqual([7, 2]);
    expect(location()).toBe("/wallets?page=2");
  });

  it("shows a card's logo, ticker, short address, wallet count and a link to its page", async () => {
    const bundle = bundleFixture({ image: "/api/launch/logo/abc", walletCount: 5 });
    renderPage(() => [bundle]);

    const card = await screen.findByTestId("bundle-card");
    expect(within(card).getByTestId("bundle-image").getAttribute("src")).toBe(
      "/api/launch/logo/abc",
    );
    expect(within(card).getByRole("heading").textContent).toBe("$MCAT");
    expect(within(card).getByTestId("bundle-address").textContent).toBe("0xAAaA…0001");
    expect(within(card).getByTestId("bundle-wallet-count").textContent).toBe("5 wallets");
    expect(card.getAttribute("href")).toBe(`/wallets/${bundle.address}`);
  });

  it("badges the DEX once the token graduated with a trade URL, the launchpad before", async () => {
    const [curve, graduatedNoUrl, dex] = bundleList(3) as [
      ReturnType<typeof bundleFixture>,
      ReturnType<typeof bundleFixture>,
      ReturnType<typeof bundleFixture>,
    ];
    graduatedNoUrl.graduated = true;
    dex.graduated = true;
    dex.tradeUrl = "https://pancakeswap.finance/swap?outputCurrency=0x1";
    renderPage(() => [curve, graduatedNoUrl, dex]);

    await screen.findByText("Showing 1-3 of 3");
    expect(screen.getAllByTestId("bundle-badge").map((b) => b.textContent)).toEqual([
      "Launchpad",
      "Launchpad",
      "DEX",
    ]);
    expect(screen.getAllByTestId("bundle-image-placeholder")[0]?.textContent).toBe("T1");
  });

  it("says 'No tokens found' with a link to the bundler when there are none", async () => {
    renderPage(() => []);

    const empty = await screen.findByTestId("bundles-empty");
    expect(within(empty).getByText("No tokens found")).toBeTruthy();
    expect(within(empty).getByRole("link").getAttribute("href")).toBe("/");
    expect(screen.queryByText(/^Showing/)).toBeNull();
    expect(screen.queryByRole("navigation", { name: "Bundle pages" })).toBeNull();
    expect(screen.queryByTestId("builder-stats-panel")).toBeNull();
  });

  it("shows the caller's own builders' record once a bundle of theirs was sent", async () => {
    server.use(builderStatsHandler(BUILDER_STATS, builderStatsFixture()));
    renderPage(() => bundleList(2));
    const panel = await screen.findByTestId("builder-stats-panel");
    expect(within(panel).getByRole("heading", { level: 2 }).textContent).toBe("Your builders");
    const rows = within(panel).getAllByTestId("builder-stats-row");
    expect(rows.map((row) => within(row).getAllByRole("cell")[0]?.textContent)).toEqual([
      "48club",
      "blockrazor",
    ]);
    expect(within(panel).getByText("2× bundle rejected: busy")).toBeTruthy();
  });
});
