import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse, http, type RequestHandler } from "msw";
import { Route, Routes } from "react-router";
import { expect } from "vitest";
import { LOCAL_CONFIG } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { pnlHandlers } from "../../../testing/pnl-handlers.ts";
import { renderInApp, settle } from "../../../testing/render.tsx";
import {
  type BundleBalancesAnswer,
  bundleBalancesHandler,
  bundleFixture,
  DEVELOPER,
  txStatusHandler,
  walletAddress,
  walletBalance,
} from "../../../testing/wallets-handlers.ts";
import { BundleDetailPage } from "./bundle-detail-page.tsx";

export const KEY = "lbk_test_key";

/** A panel of the page by its title, e.g. "Sell Tokens". */
export const panel = (title: string) => screen.getByRole("region", { name: `#${title}` });

/**
 * Four wallets: #1 holds 30M tokens and 0.5 BNB, #2 nothing but 0.0005 BNB, #3 10M tokens and
 * 0.002 BNB, #4 5M tokens and no BNB; the developer holds 20M tokens.
 */
export const fourWallets = (): BundleBalancesAnswer => ({
  bundle: bundleFixture({
    wallets: [1, 2, 3, 4].map(walletAddress),
    walletCount: 4,
  }),
  balances: [
    walletBalance(walletAddress(1), 30_000_000n, "0.5"),
    walletBalance(walletAddress(2), 0n, "0.0005"),
    walletBalance(walletAddress(3), 10_000_000n, "0.002"),
    walletBalance(walletAddress(4), 5_000_000n, "0"),
  ],
  developerBalance: walletBalance(DEVELOPER, 20_000_000n, "1.25"),
});

/**
 * The bundle page at `/wallets/{address}` over `answer()`, with the config `explorerUrl`; its
 * P&L panel reads `pnlHandlers()`' fixture unless `handlers` answer those routes.
 */
export function renderBundlePage(
  answer: () => BundleBalancesAnswer = fourWallets,
  {
    explorerUrl = null as string | null,
    address = bundleFixture().address,
    handlers = [] as RequestHandler[],
  } = {},
) {
  const balances = bundleBalancesHandler(answer);
  const pnl = pnlHandlers();
  server.use(
    ...pnl.handlers,
    balances.handler,
    // The rules panel's list: none (rules-panel.test.tsx drives it).
    http.get("/api/bundle/rules", () => HttpResponse.json({ success: true, rules: [] })),
    http.get("/api/config", () =>
      HttpResponse.json({ success: true, config: { ...LOCAL_CONFIG, explorerUrl } }),
    ),
  );
  // Handlers given win over the ones above: msw asks the latest `use` first.
  server.use(...handlers);
  const rendered = renderInApp(
    <Routes>
      <Route path="/wallets/:address" element={<BundleDetailPage />} />
      <Route path="/wallets" element={<p>bundle list</p>} />
    </Routes>,
    { route: `/wallets/${address}`, authKey: KEY },
  );
  return { balances: balances.state, pnl, ...rendered };
}

/**
 * What a file rendering the bundle's page with its charts runs first: the ResizeObserver stub,
 * and the lazily loaded charts imported (loading a module never finishes while time is fake).
 */
export async function loadCharts() {
  stubResizeObserver();
  await import("./supply-chart.tsx");
  await import("./pnl-chart.tsx");
}

/**
 * recharts measures its container; jsdom has neither ResizeObserver nor layout. The chart's
 * container is 640 x 256; nothing else (the legend) is ever reported, as jsdom could not say.
 */
export function stubResizeObserver() {
  globalThis.ResizeObserver = class {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element) {
      if (!target.classList.contains("recharts-responsive-container")) return;
      const entry = { target, contentRect: { width: 640, height: 256 } } as ResizeObserverEntry;
      this.callback([entry], this as unknown as ResizeObserver);
    }
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

/** "x of n wallets selected". */
export const count = () => screen.getByTestId("selection-count").textContent;
/** Clicks the button named `name` (in `scope`, else anywhere). */
export const press = (name: string, scope: HTMLElement = document.body) =>
  fireEvent.click(within(scope).getByRole("button", { name }));
/** The transaction-progress dialog, if open. */
export const progressDialog = () => screen.queryByTestId("tx-progress");
/** The progress dialog's rows' statuses, in order. */
export const rowStatuses = () =>
  screen.getAllByTestId("tx-row").map((row) => row.getAttribute("data-status"));

/** The page with fake time: time moves until the balances are on screen. */
export async function loadPage(answer: () => BundleBalancesAnswer = fourWallets) {
  const rendered = renderBundlePage(answer);
  await settle();
  await settle();
  expect(screen.getAllByTestId("wallet-row")).toHaveLength(4);
  return rendered;
}

/** Records what `path` is sent and answers `answer()`. */
export function postHandler(path: string, answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post(path, async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

/** Installs `/api/bundle/tx/status` answering `statusOf`; returns the hashes of every call. */
export function statusServer(statusOf: Parameters<typeof txStatusHandler>[0]) {
  const { handler, asked } = txStatusHandler(statusOf);
  server.use(handler);
  return { asked };
}

/** A failure answer with the server's own reason. */
export const failure = (error = "boom", status = 500) =>
  HttpResponse.json({ success: false, error }, { status });
