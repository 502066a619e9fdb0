import { fireEvent, screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { server } from "../../../testing/msw-server.ts";
import {
  claimFixture,
  RECEIVER,
  referralInfoFixture,
  referralServer,
} from "../../../testing/referral-handlers.ts";
import { renderInApp, toastTexts } from "../../../testing/render.tsx";
import { ReferralPage } from "./referral-page.tsx";

const HASH = `0x${"ab".repeat(32)}`;

const open = (initial: Parameters<typeof referralServer>[0] = {}) => {
  const referral = referralServer(initial);
  server.use(...referral.handlers);
  renderInApp(<ReferralPage />, { route: "/referral", authKey: "lbk_test" });
  return referral.state;
};

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByRole("textbox", { name: label }), { target: { value } });

const claimButton = () => screen.getByRole("button", { name: /Claim (Rewards|Pending)/ });

describe("the referral page", () => {
  it("explains the discount and the reward from the config, with their units", async () => {
    open();
    const text = (await screen.findByTestId("referral-explainer")).textContent;
    expect(text).toContain("$0.60 off");
    expect(text).toContain("they pay $3.40 instead of $4.00 (prices in USD, paid in BNB)");
    expect(text).toContain("You earn $0.40 in BNB for every key bought with your code");
    expect(text).toContain("10% of every launch fee (0.5 BNB)");
  });

  it("asks for a code when the user has none, refusing a blank one in the spec's words", async () => {
    const state = open();
    fireEvent.click(await screen.findByRole("button", { name: "Create Code" }));
    expect(await screen.findByText("Please enter a custom code")).toBeTruthy();
    expect(state.created).toEqual([]);
  });

  it("refuses a code of the wrong shape before asking the server", async () => {
    const state = open();
    await screen.findByRole("button", { name: "Create Code" });
    type("Custom code", "no spaces!");
    fireEvent.click(screen.getByRole("button", { name: "Create Code" }));
    expect(await screen.findByText("A code is 3 to 20 letters, digits, _ or -")).toBeTruthy();
    expect(state.created).toEqual([]);
  });

  it("creates a code, then shows it and its link with copy buttons", async () => {
    const state = open();
    await screen.findByRole("button", { name: "Create Code" });
    type("Custom code", "moon_cats");
    fireEvent.click(screen.getByRole("button", { name: "Create Code" }));

    expect((await screen.findByTestId("referral-code")).textContent).toBe("moon_cats");
    expect(screen.getByTestId("referral-link").textContent).toBe(
      `${window.location.origin}?referral=moon_cats`,
    );
    expect(screen.getByRole("button", { name: "Copy referral code" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy referral link" })).toBeTruthy();
    expect(toastTexts()).toContain("Referral code created successfully!");
    expect(state.created).toEqual([{ code: "moon_cats" }]);
  });

  it("shows the server's 'this code is taken' for a taken code", async () => {
    open();
    await screen.findByRole("button", { name: "Create Code" });
    type("Custom code", "taken");
    fireEvent.click(screen.getByRole("button", { name: "Create Code" }));

    expect(await screen.findByRole("alert")).toHaveProperty("textContent", "this code is taken");
    expect(toastTexts()).toContain("this code is taken");
    expect(screen.queryByTestId("referral-code")).toBeNull();
  });

  it("toasts 'Failed to create referral code' when the server refuses without a reason", async () => {
    open();
    server.use(
      http.post("/api/auth/referral/create", () =>
        HttpResponse.json({ success: false }, { status: 500 }),
      ),
    );
    await screen.findByRole("button", { name: "Create Code" });
    type("Custom code", "moon_cats");
    fireEvent.click(screen.getByRole("button", { name: "Create Code" }));

    await screen.findByText("Failed to create referral code");
  });

  it("toasts 'An error occurred' when the server cannot be reached", async () => {
    open();
    server.use(http.post("/api/auth/referral/create", () => HttpResponse.error()));
    await screen.findByRole("button", { name: "Create Code" });
    type("Custom code", "moon_cats");
    fireEvent.click(screen.getByRole("button", { name: "Create Code" }));

    await screen.findByText("An error occurred");
  });

  it("shows Total Uses and Total Earned", async () => {
    open({ info: referralInfoFixture({ code: "CATS", uses: 3, earned: "0.0012" }) });
    expect((await screen.findByTestId("referral-uses")).textContent).toBe("3");
    expect(screen.getByTestId("referral-earned").textContent).toBe("0.0012 BNB");
  });

  it("disables the claim when nothing is claimable and says why", async () => {
    open({ info: referralInfoFixture({ code: "CATS" }) });
    await screen.findByText("No BNB available to claim");
    expect(claimButton()).toHaveProperty("disabled", true);
  });

  it("reads 'Claim Pending' and is disabled while a claim is pending", async () => {
    open({
      info: referralInfoFixture({
        code: "CATS",
        claimable: "0.001",
        pending: "0.002",
        hasPendingClaim: true,
      }),
    });
    await screen.findByText("Claim Pending");
    expect(claimButton()).toHaveProperty("disabled", true);
  });

  it("asks for a receiving address, then a valid one, in the spec's words", async () => {
    const state = open({ info: referralInfoFixture({ code: "CATS", claimable: "0.001" }) });
    fireEvent.click(await screen.findByRole("button", { name: "Claim Rewards" }));
    expect(await screen.findByText("Please enter a receiving address")).toBeTruthy();

    type("Receiving address", "0x1234");
    fireEvent.click(claimButton());
    expect(await screen.findByText("Please enter a valid BNB address")).toBeTruthy();
    expect(state.claimed).toEqual([]);
  });

  it("submits a claim, toasts it and turns the button to Claim Pending", async () => {
    const state = open({ info: referralInfoFixture({ code: "CATS", claimable: "0.001" }) });
    await screen.findByRole("button", { name: "Claim Rewards" });
    type("Receiving address", RECEIVER);
    fireEvent.click(claimButton());

    expect(await screen.findByText("Claim Pending")).toBeTruthy();
    expect(toastTexts()).toContain("Claim request submitted successfully!");
    expect(state.claimed).toEqual([{ receivingAddress: RECEIVER }]);
    expect(await screen.findAllByTestId("claim-row")).toHaveLength(1);
  });

  it("toasts 'Failed to submit claim' when the server refuses without a reason", async () => {
    open({ info: referralInfoFixture({ code: "CATS", claimable: "0.001" }) });
    server.use(
      http.post("/api/auth/referral/claim", () =>
        HttpResponse.json({ success: false }, { status: 500 }),
      ),
    );
    await screen.findByRole("button", { name: "Claim Rewards" });
    type("Receiving address", RECEIVER);
    fireEvent.click(claimButton());

    await screen.findByText("Failed to submit claim");
  });

  it("toasts 'An error occurred' when a claim cannot reach the server", async () => {
    open({ info: referralInfoFixture({ code: "CATS", claimable: "0.001" }) });
    server.use(http.post("/api/auth/referral/claim", () => HttpResponse.error()));
    await screen.findByRole("button", { name: "Claim Rewards" });
    type("Receiving address", RECEIVER);
    fireEvent.click(claimButton());

    await screen.findByText("An error occurred");
  });

  it("lists claims with date, amount, status and the shortened receiving address", async () => {
    open({ info: referralInfoFixture({ code: "CATS" }), claims: [claimFixture()] });
    const row = await screen.findByTestId("claim-row");
    const cells = within(row).getAllByRole("cell");
    expect(cells.map((cell) => cell.textContent)).toEqual([
      "Nov 24, 2026, 3:04 PM",
      "0.0007 BNB",
      "pending",
      "0x2222…2222",
    ]);
    expect(screen.getAllByRole("columnheader").map((th) => th.textContent)).toEqual([
      "Date",
      "Amount",
      "Status",
      "Receiving Address",
    ]);
  });

  it("links a completed claim's transaction", async () => {
    open({
      info: referralInfoFixture({ code: "CATS" }),
      claims: [claimFixture({ status: "completed", txHash: HASH })],
    });
    const row = await screen.findByTestId("claim-row");
    expect(within(row).getByTestId("claim-status").textContent).toBe("completed");
    expect(within(row).getByRole("link", { name: "0xabab…abab" }).getAttribute("href")).toBe(
      `/tx/${HASH}`,
    );
  });

  it("says a rejected claim's reason", async () => {
    open({
      info: referralInfoFixture({ code: "CATS" }),
      claims: [claimFixture({ status: "rejected", reason: "address is a contract" })],
    });
    const row = await screen.findByTestId("claim-row");
    expect(row.textContent).toContain("rejected");
    expect(row.textContent).toContain("address is a contract");
  });

  it("reads info and claims again on [refresh]", async () => {
    const state = open({ info: referralInfoFixture({ code: "CATS" }) });
    await screen.findByTestId("referral-code");
    const before = { ...state.reads };

    state.info = { ...state.info, uses: 5 };
    fireEvent.click(screen.getByRole("button", { name: "[refresh]" }));

    await vi.waitFor(() => expect(screen.getByTestId("referral-uses").textContent).toBe("5"));
    expect(state.reads.info).toBe(before.info + 1);
    expect(state.reads.claims).toBe(before.claims + 1);
  });
});
