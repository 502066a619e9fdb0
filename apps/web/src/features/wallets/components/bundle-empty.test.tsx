import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { advance, settle, toastTexts } from "../../../testing/render.tsx";
import { txHash, walletAddress } from "../../../testing/wallets-handlers.ts";
import {
  count,
  failure,
  fourWallets,
  loadPage,
  postHandler,
  press,
  progressDialog,
  rowStatuses,
  statusServer,
  stubResizeObserver,
} from "./bundle-detail-test-utils.tsx";

beforeAll(async () => {
  stubResizeObserver();
  // The chart is lazily loaded; loading a module never finishes while time is fake.
  await import("./supply-chart.tsx");
});
beforeEach(() => {
  vi.useFakeTimers();
});

const RECEIVER = `0x${"e".repeat(40)}`;
const confirmDialog = () => screen.queryByTestId("confirm-dialog");

const fillReceiver = () =>
  fireEvent.change(screen.getByRole("textbox", { name: "Receiver address" }), {
    target: { value: RECEIVER },
  });

/** [has BNB] picks wallets #1 (30M tokens) and #3 (10M tokens); then [empty selected wallets]. */
async function emptyHasBnb() {
  press("[has BNB]");
  fillReceiver();
  press("[empty selected wallets]");
  await settle();
}

/** As `emptyHasBnb`, confirming the question about their tokens. */
async function emptyHasBnbConfirmed() {
  await emptyHasBnb();
  press("[empty anyway]", confirmDialog() as HTMLElement);
  await settle();
}

const result = (n: number, outcome: "mined" | "sent" | "refused") => ({
  wallet: walletAddress(n),
  success: outcome === "mined",
  hash: outcome === "refused" ? null : txHash(n),
  amount: outcome === "refused" ? "0" : "0.499979",
  error:
    outcome === "mined"
      ? null
      : outcome === "sent"
        ? `sent but not mined yet (${txHash(n)}): check its status before emptying again`
        : "balance below gas",
});

describe("emptying wallets that still hold tokens", () => {
  it("asks first, saying how many of them hold how much of the token", async () => {
    await loadPage();
    const sent = postHandler("/api/bundle/wallets/empty", () =>
      HttpResponse.json({ success: true, results: [] }),
    );

    await emptyHasBnb();

    const question = confirmDialog() as HTMLElement;
    expect(
      within(question).getByText(
        "2 of the wallets still hold 40M MCAT, which they cannot sell after this.",
      ),
    ).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it("sends nothing and keeps the selection when the question is cancelled", async () => {
    await loadPage();
    const sent = postHandler("/api/bundle/wallets/empty", () =>
      HttpResponse.json({ success: true, results: [] }),
    );

    await emptyHasBnb();
    press("[cancel]", confirmDialog() as HTMLElement);
    await settle();

    expect(confirmDialog()).toBeNull();
    expect(sent).toEqual([]);
    expect(count()).toBe("2 of 4 wallets selected");
  });

  it("empties without asking when no selected wallet holds tokens", async () => {
    await loadPage();
    const sent = postHandler("/api/bundle/wallets/empty", () =>
      HttpResponse.json({ success: true, results: [result(2, "mined")] }),
    );

    fireEvent.click(screen.getByLabelText(`Select ${walletAddress(2)}`));
    fillReceiver();
    press("[empty selected wallets]");
    await settle();

    expect(confirmDialog()).toBeNull();
    expect(sent).toEqual([expect.objectContaining({ wallets: [walletAddress(2)] })]);
  });
});

describe("the empty's progress dialog", () => {
  it("shows each wallet's transfer: hash, BNB sent to 4 decimals and status, then follows the pending ones", async () => {
    const page = await loadPage();
    const sent = postHandler("/api/bundle/wallets/empty", () =>
      HttpResponse.json({ success: true, results: [result(1, "mined"), result(3, "sent")] }),
    );
    const polls = statusServer(() => ({ status: "success", reason: null }));

    await emptyHasBnbConfirmed();

    expect(sent).toEqual([
      {
        address: fourWallets().bundle.address,
        wallets: [1, 3].map(walletAddress),
        receiver: RECEIVER,
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
    const dialog = progressDialog() as HTMLElement;
    expect(within(dialog).getByRole("heading", { name: "Emptying wallets" })).toBeTruthy();
    expect(rowStatuses()).toEqual(["success", "pending"]);
    expect(screen.getAllByTestId("tx-action").map((action) => action.textContent)).toEqual([
      "send 0.5000 BNB",
      "send 0.5000 BNB",
    ]);
    expect(
      within(dialog)
        .getAllByRole("link")
        .map((link) => link.getAttribute("href")),
    ).toEqual([1, 3].map((n) => `/tx/${txHash(n)}`));
    expect(toastTexts()).toContain("1 wallet emptied successfully");
    // After emptying, the selection and the receiver clear.
    expect(count()).toBe("0 of 4 wallets selected");
    expect(
      (screen.getByRole("textbox", { name: "Receiver address" }) as HTMLInputElement).value,
    ).toBe("");

    await advance(3_000);
    expect(polls.asked).toEqual([[txHash(3)]]);
    expect(rowStatuses()).toEqual(["success", "success"]);
    await settle();
    expect(page.balances.calls).toBeGreaterThanOrEqual(2);
  });

  it("lists a wallet for which nothing was sent as failed, with why, and says which part failed", async () => {
    await loadPage();
    postHandler("/api/bundle/wallets/empty", () =>
      HttpResponse.json({ success: true, results: [result(1, "mined"), result(3, "refused")] }),
    );

    await emptyHasBnbConfirmed();

    expect(rowStatuses()).toEqual(["success", "failed"]);
    expect(screen.getByTestId("tx-reason").textContent).toBe("balance below gas");
    expect(toastTexts()).toEqual(
      expect.arrayContaining([
        "1 wallet emptied successfully",
        "1 wallet could not be emptied: balance below gas",
      ]),
    );
  });

  it("says the spec's words, then the server's reason, when the request fails, keeping the selection", async () => {
    await loadPage();
    postHandler("/api/bundle/wallets/empty", () =>
      failure("The receiver cannot be one of the wallets being emptied", 400),
    );

    await emptyHasBnbConfirmed();

    expect(progressDialog()).toBeNull();
    expect(toastTexts()).toContain(
      "Something went wrong with emptying the wallets, please try again.The receiver cannot be one of the wallets being emptied",
    );
    expect(count()).toBe("2 of 4 wallets selected");
  });
});
