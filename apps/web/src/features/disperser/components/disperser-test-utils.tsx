import {
  DISPERSALS_PAGE_SIZE,
  type Dispersal,
  type DispersalLogLine,
  type DispersalSummary,
} from "@bundler/shared";
import { fireEvent, screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { LOCAL_CONFIG } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { DisperserPage } from "./disperser-page.tsx";

export const KEY = "lbk_test_key";
export const RECEIVER = "0x5555555555555555555555555555555555555555";
/** Destination `n`, distinct per n. */
export const destination = (n: number) => `0x${String(n).padStart(4, "0")}${"c".repeat(36)}`;

/** A dispersal as the server answers it: direct, pending, paying `wallets`. */
export const dispersalFixture = (
  wallets: string[],
  overrides: Partial<Dispersal> = {},
): Dispersal => ({
  dispersalId: RECEIVER,
  receiver: RECEIVER,
  amount: "0.430042",
  expiresIn: 30,
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  status: "pending",
  antiBubblemaps: false,
  chains: wallets.map((finalWallet) => ({
    finalWallet,
    amount: "0.11",
    currentHop: 0,
    completed: false,
    failed: false,
  })),
  funder: null,
  refunds: [],
  ...overrides,
});

/** `n` past dispersals, newest first. */
export const summaries = (n: number): DispersalSummary[] =>
  Array.from({ length: n }, (_, i) => ({
    dispersalId: `0x${String(i + 1).padStart(40, "0")}`,
    status: "completed",
    total: "0.43",
    amount: "0.430042",
    walletCount: 3,
    antiBubblemaps: true,
    createdAt: new Date(Date.UTC(2026, 10, 27, 12, 0) - i * 3_600_000).toISOString(),
  }));

export interface DisperserServer {
  /** Bodies of every `POST /api/wallets/disperse`. */
  created: unknown[];
  /** Pages asked of the history. */
  pages: number[];
  /** What the status poll answers now. */
  status: Dispersal | null;
}

/**
 * The disperser's API: creating answers `created(body)` (or `refusal()` when given), the status
 * poll `state.status`, the history pages of `history`, the log `log`.
 */
export function disperserServer({
  refusal = null as (() => Response) | null,
  created = (wallets: string[]) => dispersalFixture(wallets),
  history = [] as DispersalSummary[],
  log = [] as DispersalLogLine[],
} = {}): DisperserServer {
  const state: DisperserServer = { created: [], pages: [], status: null };
  const ok = (dispersal: Dispersal) =>
    HttpResponse.json({ success: true, message: `Dispersal ${dispersal.status}`, ...dispersal });
  server.use(
    http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    http.post("/api/wallets/disperse", async ({ request }) => {
      const body = (await request.json()) as { wallets: string[] };
      state.created.push(body);
      if (refusal) return refusal();
      state.status = created(body.wallets);
      return ok(state.status);
    }),
    http.get("/api/wallets/disperse/status", () =>
      state.status
        ? ok(state.status)
        : HttpResponse.json({ success: false, error: "Dispersal not found" }, { status: 404 }),
    ),
    http.get("/api/wallets/disperse/log", () => HttpResponse.json({ success: true, lines: log })),
    http.get("/api/wallets/disperse/list", ({ request }) => {
      const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
      state.pages.push(page);
      return HttpResponse.json({
        success: true,
        dispersals: history.slice((page - 1) * DISPERSALS_PAGE_SIZE, page * DISPERSALS_PAGE_SIZE),
        total: history.length,
        page,
        pageSize: DISPERSALS_PAGE_SIZE,
      });
    }),
  );
  return state;
}

export const renderDisperser = () =>
  renderInApp(<DisperserPage />, { route: "/disperser", authKey: KEY });

/** Types `rows` into the grid (adding rows as needed) and fills the recommended buffer. */
export function fillGrid(rows: [string, string][]) {
  for (const [index, [address, amount]] of rows.entries()) {
    if (index > 0) fireEvent.click(screen.getByRole("button", { name: "Add Row" }));
    fireEvent.change(screen.getByLabelText(`Address ${index + 1}`), {
      target: { value: address },
    });
    fireEvent.change(screen.getByLabelText(`Amount ${index + 1}`), { target: { value: amount } });
  }
  fireEvent.click(screen.getByRole("button", { name: "[recommend]" }));
}

/** The grid's addresses, in order. */
export const gridAddresses = () =>
  screen
    .getAllByTestId("wallet-row")
    .map((row) => (row.querySelector('input[aria-label^="Address"]') as HTMLInputElement).value);
