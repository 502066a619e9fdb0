import type { Bump, Bumper, BumperWallet } from "@bundler/shared";
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

export interface BumperServerState {
  bumpers: Bumper[];
  bumps: Bump[];
  wallets: BumperWallet[];
  price: number;
}

/**
 * The read side of `/api/bumper/*` over `state` as it is when asked (config and price too);
 * `calls` counts each route's requests.
 */
export function bumperReadHandlers(state: BumperServerState) {
  const calls = { list: 0, detail: 0, wallets: 0, price: 0 };
  const handlers = [
    http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    http.get("/api/bumper/price", () => {
      calls.price += 1;
      return HttpResponse.json({ success: true, price: state.price, source: "fixed" });
    }),
    http.get("/api/bumper/user", () => {
      calls.list += 1;
      return HttpResponse.json({ success: true, bumpers: state.bumpers });
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
