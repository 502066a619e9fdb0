import type { bundlePnlRoute, PnlPoint, PnlTotals, PnlWallet } from "@bundler/shared";
import { HttpResponse, http } from "msw";
import type { RouteResponse } from "../lib/api-client.ts";
import { DEVELOPER, walletAddress } from "./wallets-handlers.ts";

export type PnlAnswer = Omit<RouteResponse<typeof bundlePnlRoute>, "success">;

const BNB = 10n ** 18n;
/** `bnb` (up to 4 decimals) as a wei string. */
export const pnlWei = (bnb: string): string => {
  const negative = bnb.startsWith("-");
  const [whole = "0", fraction = ""] = bnb.replace("-", "").split(".");
  const wei = BigInt(whole) * BNB + BigInt(fraction.padEnd(18, "0").slice(0, 18) || "0");
  return String(negative ? -wei : wei);
};

export const pnlTotals = (overrides: Partial<PnlTotals> = {}): PnlTotals => ({
  costWei: pnlWei("1.2345"),
  proceedsWei: pnlWei("0.5"),
  emptiedWei: "0",
  realizedWei: pnlWei("0.1"),
  markWei: pnlWei("0.9"),
  exitWei: pnlWei("0.8"),
  unrealizedExitWei: pnlWei("-0.05"),
  ...overrides,
});

const wallet = (n: number, role: PnlWallet["role"] = "bundle"): PnlWallet => ({
  address: n === 0 ? DEVELOPER : walletAddress(n),
  role,
  costWei: pnlWei("0.2"),
  proceedsWei: pnlWei("0.1"),
  emptiedWei: "0",
  tokens: (1_000_000n * BNB).toString(),
  exitWei: pnlWei("0.15"),
  taxTokens: "0",
});

/**
 * A bundle's P&L: cost 1.2345, proceeds 0.5, realized +0.1, mark 0.9, exit 0.8, unrealized on
 * exit -0.05 BNB at $600; the developer and wallets #1 and #3, #3 drifted; a creation fee, two
 * tips and the launch fee as shared lines.
 */
export const pnlFixture = (overrides: Partial<PnlAnswer> = {}): PnlAnswer => ({
  totals: pnlTotals(),
  taxToken: null,
  wallets: [wallet(0, "developer"), wallet(1), wallet(3)],
  lines: [
    {
      kind: "create-fee",
      role: "deployer",
      address: DEVELOPER,
      wei: pnlWei("0.005"),
      txHash: null,
      block: "12",
    },
    {
      kind: "tip",
      role: "tip-payer",
      address: DEVELOPER,
      wei: pnlWei("0.001"),
      txHash: null,
      block: "12",
    },
    {
      kind: "tip",
      role: "tip-payer",
      address: DEVELOPER,
      wei: pnlWei("0.001"),
      txHash: null,
      block: "14",
    },
    {
      kind: "launch-fee",
      role: "platform",
      address: DEVELOPER,
      wei: pnlWei("0.5"),
      txHash: null,
      block: "9",
    },
  ],
  drift: [
    {
      address: walletAddress(1),
      ledgerWei: pnlWei("0.3"),
      chainWei: pnlWei("0.3"),
      percent: 0,
      flagged: false,
    },
    {
      address: walletAddress(3),
      ledgerWei: pnlWei("0.3"),
      chainWei: pnlWei("0.4"),
      percent: 33.33,
      flagged: true,
    },
  ],
  bnbUsd: 600,
  asOfBlock: "40",
  ...overrides,
});

/** Two events: the launch (cost 1.2345, exit 1.1) and a sale (proceeds 0.5, exit 0.8). */
export const pnlHistoryFixture = (): PnlPoint[] => [
  {
    block: "12",
    at: "2026-01-01T00:00:00.000Z",
    costWei: pnlWei("1.2345"),
    proceedsWei: "0",
    exitWei: pnlWei("1.1"),
  },
  {
    block: "30",
    at: "2026-01-01T00:05:00.000Z",
    costWei: pnlWei("1.2345"),
    proceedsWei: pnlWei("0.5"),
    exitWei: pnlWei("0.8"),
  },
];

/**
 * `GET /api/bundle/pnl`, `/pnl/history` and `/pnl.csv` over what the callbacks answer; `calls`
 * counts each, `csvKeys` records the key header of every CSV request.
 */
export function pnlHandlers({
  answer = () => pnlFixture(),
  history = () => pnlHistoryFixture(),
  csv = () =>
    new HttpResponse("block,time\n12,2026-01-01\n", {
      headers: {
        "content-type": "text/csv",
        "content-disposition":
          'attachment; filename="pnl-MCAT-0xAAaA000000000000000000000000000000000001.csv"',
      },
    }),
}: {
  answer?: () => PnlAnswer;
  history?: () => PnlPoint[];
  csv?: () => Response;
} = {}) {
  const calls = { pnl: 0, history: 0, csv: 0 };
  const csvRequests: { key: string | null; address: string | null }[] = [];
  const handlers = [
    http.get("/api/bundle/pnl", () => {
      calls.pnl += 1;
      return HttpResponse.json({ success: true, ...answer() });
    }),
    http.get("/api/bundle/pnl/history", () => {
      calls.history += 1;
      return HttpResponse.json({ success: true, points: history() });
    }),
    http.get("/api/bundle/pnl.csv", ({ request }) => {
      calls.csv += 1;
      csvRequests.push({
        key: request.headers.get("x-auth-key"),
        address: new URL(request.url).searchParams.get("address"),
      });
      return csv();
    }),
  ];
  return { handlers, calls, csvRequests };
}
