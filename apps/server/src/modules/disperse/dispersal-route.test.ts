import { describe, expect, it } from "vitest";
import { legProgress } from "./dispersal-route.ts";
import type { TransferRow } from "./dispersal-transfers.ts";

const hop = (step: number, status: TransferRow["status"]): TransferRow => ({
  id: `hop-${step}`,
  dispersalId: "d",
  kind: "hop",
  leg: 0,
  step,
  stepKey: `0:${step}`,
  from: `0x${String(step).padStart(40, "0")}`,
  to: `0x${String(step + 1).padStart(40, "0")}`,
  value: "1000",
  txHash: `0x${step}`,
  reason: null,
  status,
  txStatus: status === "confirmed" ? "mined" : status === "failed" ? "reverted" : status,
  error: status === "failed" ? "execution reverted" : null,
  paidGas: status === "failed",
  blockNumber: null,
});

describe("legProgress", () => {
  it("counts the steps before a hop in flight as confirmed when the newest ones leave them out", () => {
    const progress = legProgress(true, 0, [hop(4, "sent")]);
    expect(progress.currentHop).toBe(3);
    expect(progress.started).toBe(true);
  });

  it("does not count a step as confirmed while the hop signed ahead of it waits for it", () => {
    const progress = legProgress(true, 0, [hop(0, "sent"), hop(1, "signed")]);
    expect(progress.started).toBe(false);
    expect(progress.currentHop).toBe(0);
  });

  it("fails a chain at its first failed step, not at the one signed ahead of it", () => {
    const progress = legProgress(true, 0, [hop(5, "failed"), hop(6, "failed")]);
    expect(progress.failedStep).toBe(5);
    expect(progress.failed?.id).toBe("hop-5");
  });

  it("is delivered once the last step is confirmed", () => {
    expect(legProgress(true, 0, [hop(10, "confirmed")]).delivered).toBe(true);
    expect(legProgress(true, 0, [hop(9, "confirmed"), hop(10, "sent")]).delivered).toBe(false);
  });
});
