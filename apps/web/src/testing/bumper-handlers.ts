import {
  BUMPERS_PAGE_SIZE,
  type Bump,
  type Bumper,
  type BumperCosts,
  type BumperWallet,
  bumperTabOf,
} from "@bundler/shared";
import { HttpResponse, http } from "msw";
import { LOCAL_CONFIG } from "./fixtures.ts";

export const TOKEN = `0x${"a".repeat(40)}`;
export const BUMPER_WALLET = `0x${"b".repeat(40)}`;

/** Bumper `n`'s id: a uuid ending in n. */
export const bumperId = (n: number) => `7d1e2f3a-4b5c-4d6e-8f70-${String(n).padStart(12, "0")}`;

/**
 * A bumper as `/api/bumper/user` answers it: just generated for `TOKEN` with the defaults
 * (every 5 min for 30 min: 6 bumps of 0.01 BNB), unfunded.
 */
export const bumperFixture = (overrides: Partial<Bumper> = {}): Bumper => ({
  id: bumperId(1),
  targetToken: TOKEN,
  totalBumps: 6,
  bumpsCompleted: 0,
  interval: 5,
  duration: 30,
  buySize: "0.01",
  balance: "0",
  active: false,
  status: "ready",
  stopReason: null,
  nextBumpAt: null,
  lastBumpAt: null,
  address: BUMPER_WALLET,
  currentWalletIndex: 0,
  gasSpent: "0",
  volume: "0",
  createdAt: new Date(0).toISOString(),
  ...overrides,
});

export const bumpFixture = (index: number, overrides: Partial<Bump> = {}): Bump => ({
  index,
  at: new Date(Date.UTC(2026, 0, 1, 12, index * 5)).toISOString(),
  block: 100 + index,
  bought: "0.01",
  sold: "0.0098",
  gas: "0.0004",
  price: "0.0000000312",
  buyHash: `0x${"1".repeat(64)}`,
  sellHash: `0x${"2".repeat(64)}`,
  ...overrides,
});

export const bumperWalletFixture = (
  index: number,
  overrides: Partial<BumperWallet> = {},
): BumperWallet => ({
  index,
  address: `0x${String(index + 1).padStart(4, "0")}${"c".repeat(36)}`,
  balance: "0",
  tokens: "0",
  isActive: false,
  ...overrides,
});

/** What the local server answers at 1 gwei: tip 0.0005, gas up to 0.0007, fees 1% (≥ 0.0001). */
export const COSTS_FIXTURE: BumperCosts = {
  tip: "0.0005",
  gas: "0.0007",
  tradingFeeBps: 100,
  minTradingFee: "0.0001",
};

/** `/api/bumper/user`'s answer over `bumpers`: the asked tab's page, and each tab's count. */
export function bumperListAnswer(bumpers: Bumper[], request: Request) {
  const query = new URL(request.url).searchParams;
  const tab = query.get("tab");
  const page = Number(query.get("page") ?? 1);
  const limit = Number(query.get("limit") ?? BUMPERS_PAGE_SIZE);
  const inTab = bumpers.filter((b) => !tab || bumperTabOf(b.status) === tab);
  const count = (name: string) => bumpers.filter((b) => bumperTabOf(b.status) === name).length;
  return {
    success: true,
    bumpers: inTab.slice((page - 1) * limit, page * limit),
    pagination: { page, limit, total: inTab.length, pages: Math.ceil(inTab.length / limit) },
    counts: { active: count("active"), completed: count("completed") },
  };
}

export interface BumperServerState {
  bumpers: Bumper[];
  bumps: Bump[];
  wallets: BumperWallet[];
  price: number;
  costs?: BumperCosts;
}

/**
 * The read side of `/api/bumper/*` over `state` as it is when asked (config and price too);
 * `calls` counts each route's requests.
 */
export function bumperReadHandlers(state: BumperServerState) {
  const calls = { list: 0, detail: 0, wallets: 0, price: 0, costs: 0 };
  const handlers = [
    http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    http.get("/api/bumper/price", () => {
      calls.price += 1;
      return HttpResponse.json({ success: true, price: state.price, source: "fixed" });
    }),
    http.get("/api/bumper/costs", () => {
      calls.costs += 1;
      return HttpResponse.json({ success: true, costs: state.costs ?? COSTS_FIXTURE });
    }),
    http.get("/api/bumper/user", ({ request }) => {
      calls.list += 1;
      return HttpResponse.json(bumperListAnswer(state.bumpers, request));
    }),
    http.get("/api/bumper/:id/wallets", () => {
      calls.wallets += 1;
      return HttpResponse.json({ success: true, wallets: state.wallets });
    }),
    http.get("/api/bumper/:id", ({ params }) => {
      const bumper = state.bumpers.find((b) => b.id === params.id);
      if (!bumper)
        return HttpResponse.json({ success: false, error: "Bumper not found" }, { status: 404 });
      calls.detail += 1;
      return HttpResponse.json({ success: true, bumper, bumps: state.bumps });
    }),
  ];
  return { handlers, calls };
}
