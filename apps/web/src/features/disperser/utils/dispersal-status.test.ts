import type { DispersalChain } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import {
  chainProgress,
  chainState,
  DISPERSAL_MESSAGES,
  dispersalOutcome,
  hopPercent,
  isMoving,
  minutesLeft,
  readStoredDispersalId,
} from "./dispersal-status.ts";

const chain = (patch: Partial<DispersalChain> = {}): DispersalChain => ({
  finalWallet: "0x1111111111111111111111111111111111111111",
  amount: "0.1",
  currentHop: 0,
  completed: false,
  failed: false,
  ...patch,
});

describe("readStoredDispersalId", () => {
  it("trusts a stored address", () => {
    const id = "0xabCDeF0123456789AbcdEf0123456789aBCDEF01";
    expect(readStoredDispersalId(id)).toBe(id);
  });

  it("ignores a missing or malformed value", () => {
    expect(readStoredDispersalId(null)).toBeNull();
    expect(readStoredDispersalId("abc")).toBeNull();
  });
});

describe("dispersalOutcome", () => {
  it("shows a pending dispersal's payment and keeps its id", () => {
    expect(dispersalOutcome("pending", true)).toEqual({
      view: "pending",
      keepStoredId: true,
      notice: null,
    });
  });

  it("shows the chains of a moving anti bubblemaps dispersal", () => {
    expect(dispersalOutcome("sending", true).view).toBe("chains");
    expect(dispersalOutcome("processing", true)).toMatchObject({
      view: "chains",
      keepStoredId: true,
    });
  });

  it("shows the plain sending message for a direct dispersal", () => {
    expect(dispersalOutcome("sending", false).view).toBe("sending");
    expect(dispersalOutcome("processing", false)).toMatchObject({
      view: "sending",
      keepStoredId: true,
    });
  });

  it("clears a completed dispersal with a success message", () => {
    expect(dispersalOutcome("completed", true)).toEqual({
      view: null,
      keepStoredId: false,
      notice: { tone: "success", message: DISPERSAL_MESSAGES.completed },
    });
  });

  it("clears a failed or expired dispersal with an error", () => {
    expect(dispersalOutcome("failed", true)).toEqual({
      view: null,
      keepStoredId: false,
      notice: { tone: "error", message: "Dispersal failed, please create a new one." },
    });
    expect(dispersalOutcome("expired", false)).toEqual({
      view: null,
      keepStoredId: false,
      notice: { tone: "error", message: "Dispersal expired, please create a new one." },
    });
  });

  it("clears a cancelled dispersal quietly", () => {
    expect(dispersalOutcome("cancelled", true)).toEqual({
      view: null,
      keepStoredId: false,
      notice: null,
    });
  });

  it("clears a partial dispersal's stored id but keeps it on screen", () => {
    expect(dispersalOutcome("partial", true)).toEqual({
      view: "partial",
      keepStoredId: false,
      notice: null,
    });
  });
});

describe("isMoving", () => {
  it("is true only while the funded dispersal is being sent", () => {
    expect(isMoving("sending")).toBe(true);
    expect(isMoving("processing")).toBe(true);
    expect(isMoving("pending")).toBe(false);
    expect(isMoving("completed")).toBe(false);
  });
});

describe("chainProgress", () => {
  it("counts completed and failed chains", () => {
    const chains = [
      chain({ completed: true, currentHop: 9 }),
      chain({ currentHop: 4 }),
      chain({ failed: true, currentHop: 2 }),
      chain({ completed: true, currentHop: 9 }),
    ];
    expect(chainProgress(chains)).toEqual({ total: 4, completed: 2, failed: 1, percent: 50 });
  });

  it("is 0% with no chains", () => {
    expect(chainProgress([])).toEqual({ total: 0, completed: 0, failed: 0, percent: 0 });
  });
});

describe("chainState", () => {
  it("labels a chain Completed, Failed or Processing", () => {
    expect(chainState(chain({ completed: true }))).toBe("Completed");
    expect(chainState(chain({ failed: true }))).toBe("Failed");
    expect(chainState(chain())).toBe("Processing");
  });
});

describe("hopPercent", () => {
  it("fills the hop bar by hops out of 9", () => {
    expect(hopPercent(chain({ currentHop: 0 }))).toBe(0);
    expect(hopPercent(chain({ currentHop: 3 }))).toBeCloseTo(33.33, 1);
    expect(hopPercent(chain({ currentHop: 9 }))).toBe(100);
  });

  it("is full for a completed chain and never above full", () => {
    expect(hopPercent(chain({ completed: true, currentHop: 0 }))).toBe(100);
    expect(hopPercent(chain({ currentHop: 12 }))).toBe(100);
  });
});

describe("minutesLeft", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");

  it("rounds the time to expiry up to whole minutes", () => {
    expect(minutesLeft("2025-01-01T00:29:01Z", 30, now)).toBe(30);
    expect(minutesLeft("2025-01-01T00:00:30Z", 30, now)).toBe(1);
  });

  it("never goes below 0", () => {
    expect(minutesLeft("2024-12-31T23:00:00Z", 0, now)).toBe(0);
  });

  it("falls back to the server's minutes when expiresAt is unreadable", () => {
    expect(minutesLeft("soon", 12, now)).toBe(12);
  });
});
