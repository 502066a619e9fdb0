import type { SellTransaction } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import {
  allFinished,
  applyStatuses,
  bundlesSummary,
  pendingHashes,
  progressSummary,
  rowsFromSell,
} from "./tx-progress.ts";

const hash = (digit: string) => `0x${digit.repeat(64)}`;
const wallet = (digit: string) => `0x${digit.repeat(40)}`;
const sent = (digit: string, overrides: Partial<SellTransaction> = {}): SellTransaction => ({
  hash: hash(digit),
  from: wallet(digit),
  amount: "100",
  kind: "sell",
  status: "pending",
  error: null,
  route: "bundle",
  minOut: "0.0095",
  expectedOut: "0.01",
  ...overrides,
});

describe("transaction progress", () => {
  it("starts sent transactions pending and refused ones failed with their reason", () => {
    const rows = rowsFromSell([
      sent("a"),
      sent("b", { hash: null, status: "failed", error: "no tokens to sell" }),
    ]);
    expect(rows.map((row) => [row.status, row.reason])).toEqual([
      ["pending", null],
      ["failed", "no tokens to sell"],
    ]);
    expect(pendingHashes(rows)).toEqual([hash("a")]);
    expect(allFinished(rows)).toBe(false);
  });

  it("keeps each transaction's route, and a sale's floor but not an approval's", () => {
    const rows = rowsFromSell([
      sent("a", { kind: "approve", amount: "0", minOut: null, expectedOut: null }),
      sent("b", { route: "public", minOut: "0.1234" }),
    ]);
    expect(rows.map((row) => [row.kind, row.route, row.minOut])).toEqual([
      ["approve", "bundle", null],
      ["sell", "public", "0.1234"],
    ]);
  });

  it("says how many bundles the sells went out in only when there was more than one", () => {
    expect(bundlesSummary(0)).toBeNull();
    expect(bundlesSummary(1)).toBeNull();
    expect(bundlesSummary(2)).toBe("Sent privately in 2 bundles, for consecutive blocks.");
  });

  it("lists a transaction named twice once (the developer sell's approval and sell)", () => {
    expect(rowsFromSell([sent("a"), sent("a"), sent("b")])).toHaveLength(2);
  });

  it("moves pending rows to what the poll reports and keeps finished ones", () => {
    const rows = rowsFromSell([sent("a"), sent("b"), sent("c")]);
    const polled = applyStatuses(rows, [
      { hash: hash("a").toUpperCase().replace("0X", "0x"), status: "success", reason: null },
      { hash: hash("b"), status: "failed", reason: "execution reverted: slippage" },
      { hash: hash("c"), status: "pending", reason: null },
    ]);
    expect(polled.map((row) => row.status)).toEqual(["success", "failed", "pending"]);
    expect(polled[1]?.reason).toBe("execution reverted: slippage");
    expect(pendingHashes(polled)).toEqual([hash("c")]);
    expect(progressSummary(polled)).toBe("2 of 3 finished");

    const again = applyStatuses(polled, [{ hash: hash("a"), status: "error", reason: null }]);
    expect(again).toBe(polled);
  });

  it("is finished when nothing is pending", () => {
    const rows = applyStatuses(rowsFromSell([sent("a")]), [
      { hash: hash("a"), status: "error", reason: null },
    ]);
    expect(allFinished(rows)).toBe(true);
    expect(pendingHashes(rows)).toEqual([]);
  });
});
