import { describe, expect, it } from "vitest";
import type { LedgerRow, PnlBundle } from "./pnl.repository.ts";
import type { BundleWorth } from "./pnl-exit.ts";
import { driftOf, historyOf, sharedLinesOf, totalsOf } from "./pnl-figures.ts";

const DEV = "0x00000000000000000000000000000000000000d0";
const A = "0x00000000000000000000000000000000000000a1";
const HOP1 = "0x0000000000000000000000000000000000000f01";
const HOP2 = "0x0000000000000000000000000000000000000f02";

const bundle: PnlBundle = {
  token: "0x00000000000000000000000000000000000000cc",
  ownerId: "owner",
  draftId: "draft",
  launchBlock: 10n,
  wallets: [A],
  deployer: DEV,
  tipPayer: DEV,
};

let n = 0;
const row = (
  partial: Partial<LedgerRow> & Pick<LedgerRow, "kind" | "wallet" | "bnb">,
): LedgerRow => ({
  token: bundle.token,
  txHash: `0x${(n++).toString(16)}`,
  logIndex: -1,
  role: "bundle",
  tokens: "0",
  blockNumber: 10n,
  blockTime: new Date(0),
  ...partial,
});

const worth = (bnb: Record<string, bigint>, exit = 0n): BundleWorth => ({
  blockNumber: 20n,
  holdings: new Map(Object.entries(bnb).map(([a, v]) => [a, { bnb: v, token: 0n }])),
  exit: new Map(),
  exitTotal: exit,
  price: 0n,
  template: null,
});

describe("totalsOf", () => {
  it("realizes proceeds less every cost's share of the tokens sold", () => {
    const rows = [
      row({ kind: "buy", wallet: A, bnb: "1000", tokens: "300" }),
      row({ kind: "trading-fee", wallet: A, bnb: "10" }),
      row({ kind: "tip", wallet: DEV, role: "tip-payer", bnb: "20" }),
      row({ kind: "sale", wallet: A, bnb: "700", tokens: "100" }),
      row({ kind: "empty", wallet: A, bnb: "5000" }),
    ];
    const totals = totalsOf(rows, worth({}, 900n));
    expect(totals).toMatchObject({
      costWei: "1030",
      proceedsWei: "700",
      emptiedWei: "5000",
      realizedWei: String(700 - Math.floor((1030 * 100) / 300)),
      unrealizedExitWei: String(900 - Math.floor((1030 * 200) / 300)),
    });
  });
});

describe("driftOf", () => {
  const rows = [
    row({ kind: "opening", wallet: A, bnb: "1000000" }),
    row({ kind: "buy", wallet: A, bnb: "400000", tokens: "1" }),
    row({ kind: "dispersal-cost", wallet: HOP1, role: "dispersal", bnb: "7" }),
  ];

  it("agrees with a balance that is exactly the ledger's", () => {
    const [, a] = driftOf(bundle, rows, worth({ [A]: 600000n }));
    expect(a).toMatchObject({ ledgerWei: "600000", chainWei: "600000", flagged: false });
  });

  it("flags a balance more than 0.1% away from the ledger's", () => {
    const [, a] = driftOf(bundle, rows, worth({ [A]: 600601n }));
    expect(a).toMatchObject({ flagged: true, percent: 0.1 });
  });

  it("does not judge a wallet whose transaction is not in the ledger yet", () => {
    const [, a] = driftOf(bundle, rows, worth({ [A]: 900000n }), new Set([A]));
    expect(a).toMatchObject({ pending: true, flagged: false });
  });
});

describe("sharedLinesOf", () => {
  it("adds a dispersal's hops up to one line with no single payer", () => {
    const lines = sharedLinesOf([
      row({ kind: "dispersal-cost", wallet: HOP1, role: "dispersal", bnb: "5" }),
      row({ kind: "dispersal-cost", wallet: HOP2, role: "dispersal", bnb: "6" }),
      row({ kind: "buy", wallet: A, bnb: "100" }),
    ]);
    expect(lines).toEqual([
      {
        kind: "dispersal-cost",
        role: "dispersal",
        address: null,
        wei: "11",
        txHash: null,
        block: "10",
      },
    ]);
  });
});

describe("historyOf", () => {
  it("keeps one point per block, the last with the exit value now", () => {
    const points = historyOf(
      [
        row({ kind: "buy", wallet: A, bnb: "100", blockNumber: 10n }),
        row({ kind: "gas", wallet: A, bnb: "1", blockNumber: 10n }),
        row({ kind: "sale", wallet: A, bnb: "50", blockNumber: 12n }),
      ],
      new Map([[10n, 90n]]),
      40n,
    );
    expect(points.map((p) => [p.block, p.costWei, p.proceedsWei, p.exitWei])).toEqual([
      ["10", "101", "0", "90"],
      ["12", "101", "50", "40"],
    ]);
  });
});
