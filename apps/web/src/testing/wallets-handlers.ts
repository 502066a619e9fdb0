import {
  BUNDLES_PAGE_SIZE,
  type Bundle,
  type SellTransaction,
  type TxStatusEntry,
  type WalletBalance,
} from "@bundler/shared";
import { HttpResponse, http } from "msw";

const TOKEN = 10n ** 18n;

/** A bundle as `/api/auth/bundles` answers it: token `0xaaaa…0001`, two wallets, not graduated. */
export const bundleFixture = (overrides: Partial<Bundle> = {}): Bundle => ({
  address: "0xAAaA000000000000000000000000000000000001",
  ticker: "MCAT",
  name: "Moon Cat",
  wallets: [walletAddress(1), walletAddress(2)],
  walletCount: 2,
  developer: DEVELOPER,
  image: null,
  tradeUrl: null,
  launchpadUrl: "https://four.meme/token/0xAAaA000000000000000000000000000000000001",
  graduated: false,
  blockNumber: "12",
  createdAt: new Date(0).toISOString(),
  ...overrides,
});

/** `n` bundles, newest first: tickers T1, T2, …, token addresses `0xaaaa…0001`, …. */
export const bundleList = (n: number): Bundle[] =>
  Array.from({ length: n }, (_, i) =>
    bundleFixture({
      address: `0xaaaa${String(i + 1).padStart(36, "0")}`,
      ticker: `T${i + 1}`,
      name: `Token ${i + 1}`,
    }),
  );

/** Bundle wallet `n`: `0x1000…000n` style, distinct per n. */
export const walletAddress = (n: number) => `0x${String(n).padStart(4, "0")}${"b".repeat(36)}`;
export const DEVELOPER = `0x${"d".repeat(40)}`;

/** A wallet holding `tokens` whole tokens and `bnb` BNB. */
export const walletBalance = (address: string, tokens: bigint, bnb: string): WalletBalance => ({
  address,
  tokenBalance: tokens.toLocaleString("en-US"),
  tokenUnits: (tokens * TOKEN).toString(),
  bnbBalance: bnb,
});

/** 1,000,000,000 tokens, the launchpad's supply. */
export const TOTAL_SUPPLY = (1_000_000_000n * TOKEN).toString();

export interface BundleBalancesAnswer {
  bundle: Bundle;
  balances: WalletBalance[];
  developerBalance: WalletBalance | null;
  totalSupply?: string;
}

/**
 * `GET /api/auth/bundles` as the server pages it (9 a page) over what `bundles()` holds;
 * `asked` records every page requested.
 */
export function bundlesListHandler(bundles: () => Bundle[]) {
  const asked: number[] = [];
  const handler = http.get("/api/auth/bundles", ({ request }) => {
    const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
    asked.push(page);
    const all = bundles();
    return HttpResponse.json({
      success: true,
      bundles: all.slice((page - 1) * BUNDLES_PAGE_SIZE, page * BUNDLES_PAGE_SIZE),
      total: all.length,
      page,
      pageSize: BUNDLES_PAGE_SIZE,
    });
  });
  return { handler, asked };
}

/** `GET /api/bundle/wallets/balances` answering `answer()`; counts calls. */
export function bundleBalancesHandler(answer: () => BundleBalancesAnswer) {
  const state = { calls: 0 };
  const handler = http.get("/api/bundle/wallets/balances", () => {
    state.calls += 1;
    const { totalSupply = TOTAL_SUPPLY, ...rest } = answer();
    return HttpResponse.json({ success: true, message: "ok", totalSupply, ...rest });
  });
  return { handler, state };
}

/**
 * A sell's transaction from wallet `from`, pending under `hash` unless told, sent in a private
 * bundle with a floor of 0.0095 BNB (a sale's; an approval has none).
 */
export const sellTx = (
  from: string,
  hash: string | null,
  overrides: Partial<SellTransaction> = {},
): SellTransaction => ({
  hash,
  from,
  amount: "1,000",
  kind: "sell",
  status: hash ? "pending" : "failed",
  error: hash ? null : "nothing to sell",
  route: "bundle",
  minOut: hash && overrides.kind !== "approve" ? "0.0095" : null,
  expectedOut: hash && overrides.kind !== "approve" ? "0.01" : null,
  ...overrides,
});

export const txHash = (n: number) => `0x${String(n).padStart(64, "0")}`;

/**
 * `POST /api/bundle/tx/status`: each hash's status from `statusOf(hash, call)`; `asked` records
 * the hashes of every call.
 */
export function txStatusHandler(
  statusOf: (
    hash: string,
    call: number,
  ) => Pick<TxStatusEntry, "status" | "reason"> &
    Partial<Pick<TxStatusEntry, "blockNumber" | "sale">>,
) {
  const asked: string[][] = [];
  const handler = http.post("/api/bundle/tx/status", async ({ request }) => {
    const { txHashes } = (await request.json()) as { txHashes: string[] };
    asked.push(txHashes);
    return HttpResponse.json({
      success: true,
      statuses: txHashes.map((hash) => ({
        hash,
        blockNumber: null,
        ...statusOf(hash, asked.length),
      })),
    });
  });
  return { handler, asked };
}
