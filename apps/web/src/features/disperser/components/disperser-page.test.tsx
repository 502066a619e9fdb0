import { dispersalStatusEvent } from "@bundler/shared";
import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import { getAddress } from "viem";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatDateTime } from "../../../lib/format-date.ts";
import { formatClock } from "../../../lib/terminal-line.ts";
import { advance, settle, toastTexts } from "../../../testing/render.tsx";
import { deliverSocketEvent } from "../../../testing/socket-events.ts";
import {
  destination,
  dispersalFixture,
  disperserServer,
  fillGrid,
  gridAddresses,
  KEY,
  RECEIVER,
  renderDisperser,
  summaries,
} from "./disperser-test-utils.tsx";

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
});
afterEach(() => {
  localStorage.clear();
});

const create = async () => {
  fireEvent.click(screen.getByRole("button", { name: "[create dispersal]" }));
  await settle();
};

describe("after a dispersal delivered", () => {
  it("clears the grid once it completed, so a second click pays no one again", async () => {
    const api = disperserServer();
    renderDisperser();
    await settle();
    fillGrid([
      [destination(1), "0.1"],
      [destination(2), "0.25"],
    ]);
    await create();
    expect(api.created).toHaveLength(1);
    expect(screen.getByTestId("dispersal-dialog")).toBeTruthy();

    api.status = dispersalFixture([destination(1), destination(2)], {
      status: "completed",
      chains: [1, 2].map((n) => ({
        finalWallet: destination(n),
        amount: "0.11",
        currentHop: 0,
        completed: true,
        failed: false,
      })),
    });
    await advance(10_000);

    expect(toastTexts()).toContain("Dispersal completed!");
    expect(screen.queryByTestId("dispersal-dialog")).toBeNull();
    expect(gridAddresses()).toEqual([""]);
    await create();
    expect(api.created).toHaveLength(1);
    expect(toastTexts()).toContain("Please add some wallets.");
  });

  it("keeps only the rows of the wallets it did not pay when it partly completed", async () => {
    const api = disperserServer();
    renderDisperser();
    await settle();
    fillGrid([
      [destination(1), "0.1"],
      [destination(2), "0.25"],
      [destination(3), "0.05"],
    ]);
    await create();

    api.status = dispersalFixture([1, 2, 3].map(destination), {
      status: "partial",
      chains: [1, 2, 3].map((n) => ({
        finalWallet: destination(n),
        amount: "0.11",
        currentHop: 0,
        completed: n !== 2,
        failed: n === 2,
      })),
    });
    await advance(10_000);

    expect(screen.getByTestId("dispersal-partial")).toBeTruthy();
    expect(gridAddresses()).toEqual([destination(2)]);
    expect((screen.getByLabelText("Amount 1") as HTMLInputElement).value).toBe("0.25");
  });
});

describe("a dispersal the server refuses", () => {
  it("marks the grid row its answer names, counting only the rows that were sent", async () => {
    disperserServer({
      refusal: () =>
        HttpResponse.json(
          { success: false, error: "Wallet 2 amount must be above 0", field: "amounts.1", row: 2 },
          { status: 400 },
        ),
    });
    renderDisperser();
    await settle();
    fillGrid([
      ["0x12", "5"],
      [destination(1), "0.1"],
      [destination(2), "0.0"],
    ]);
    await create();

    const rows = screen.getAllByTestId("wallet-row");
    expect(rows.map((row) => row.getAttribute("data-refused"))).toEqual([null, null, "true"]);
    expect(screen.getByLabelText("Amount 3").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByTestId("refused-row").textContent).toBe(
      "Row 3: Wallet 2 amount must be above 0",
    );

    fireEvent.change(screen.getByLabelText("Amount 3"), { target: { value: "0.2" } });
    expect(screen.queryByTestId("refused-row")).toBeNull();
  });
});

describe("a page reloaded mid-dispersal", () => {
  it("shows the log's earlier lines, with their times, before the live ones", async () => {
    localStorage.setItem("dispersal-id", RECEIVER);
    const earlier = [
      { at: "2026-11-27T21:00:01.000Z", message: `Received 0.4300 BNB from ${destination(9)}` },
      { at: "2026-11-27T21:00:04.000Z", message: "Chain 1: hop 1/9 to 0x1234…abcd" },
    ];
    const api = disperserServer({ log: earlier });
    api.status = dispersalFixture([destination(1)], { status: "processing", antiBubblemaps: true });
    renderDisperser();
    await settle();
    await settle();

    const log = screen.getByRole("list", { name: "Transaction Log" });
    const lines = () =>
      within(log)
        .getAllByTestId("terminal-line")
        .map((li) => li.textContent);
    // Addresses come back checksummed, as every screen writes them.
    expect(lines()).toEqual(
      earlier.map(
        (line) =>
          `[${formatClock(new Date(line.at))}]${line.message.replace(/0x[0-9a-fA-F]{40}/, (a) => getAddress(a))}`,
      ),
    );

    deliverSocketEvent(dispersalStatusEvent(KEY), { message: "Chain 1: hop 2/9 to 0x9999…abcd" });
    expect(lines()).toHaveLength(3);
    expect(lines()[2]).toMatch(/Chain 1: hop 2\/9 to 0x9999…abcd$/);
  });
});

describe("the form's empty fields", () => {
  it("show examples, not values that look typed in", async () => {
    disperserServer();
    renderDisperser();
    await settle();
    expect(screen.getByLabelText("Balance buffer").getAttribute("placeholder")).toBe("e.g. 0.01");
    expect(screen.getByLabelText("Amount 1").getAttribute("placeholder")).toBe("e.g. 0.1");
  });
});

describe("the past dispersals", () => {
  it("lists them newest first with date, status, wallet count and total, 10 a page", async () => {
    const history = summaries(12);
    const api = disperserServer({ history });
    renderDisperser();
    await settle();

    const table = screen.getByRole("table", { name: "Past dispersals" });
    const rows = within(table).getAllByTestId("dispersal-history-row");
    expect(rows).toHaveLength(10);
    expect(Array.from(rows[0]?.querySelectorAll("td") ?? []).map((td) => td.textContent)).toEqual([
      formatDateTime(history[0]?.createdAt ?? ""),
      "Completed",
      "3",
      "0.4300 BNB",
    ]);

    fireEvent.click(screen.getByRole("button", { name: "Page 2" }));
    await settle();
    expect(api.pages).toEqual([1, 2]);
    expect(within(table).getAllByTestId("dispersal-history-row")).toHaveLength(2);
  });

  it("says so when there are none", async () => {
    disperserServer();
    renderDisperser();
    await settle();
    expect(screen.getByTestId("dispersal-history-empty").textContent).toBe("No dispersals yet.");
  });

  it("are read again once a dispersal is created", async () => {
    const api = disperserServer();
    renderDisperser();
    await settle();
    fillGrid([[destination(1), "0.1"]]);
    await create();
    expect(api.pages.length).toBeGreaterThanOrEqual(2);
  });
});
