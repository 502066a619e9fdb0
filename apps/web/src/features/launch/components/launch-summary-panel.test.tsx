import type { LaunchPlan } from "@bundler/shared";
import { screen, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { planFixture } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { usePlanLaunch } from "../api/plan-launch.ts";
import { type BundleWallet, EMPTY_LAUNCH_FORM, type LaunchForm } from "../utils/launch-form.ts";
import { LaunchSummaryPanel } from "./launch-summary-panel.tsx";

const WALLETS: BundleWallet[] = planFixture().wallets.map(({ address, buyValue }) => ({
  address,
  privateKey: "0x",
  buyValue,
}));

/** The create page's summary, fed by its plan. */
function Summary({ form = EMPTY_LAUNCH_FORM }: { form?: LaunchForm }) {
  const plan = usePlanLaunch(form, WALLETS, true);
  return <LaunchSummaryPanel plan={plan} />;
}

/** The plan route: answers `plan` once `answer` lets it, recording each request's body. */
function planServer(plan: LaunchPlan = planFixture(), answer: Promise<void> = Promise.resolve()) {
  const bodies: unknown[] = [];
  server.use(
    http.post("/api/bundle/plan", async ({ request }) => {
      bodies.push(await request.json());
      await answer;
      return HttpResponse.json({ success: true, plan });
    }),
  );
  return bodies;
}

const row = (text: string) => screen.getByText(text).closest("tr") as HTMLElement;

describe("the pre-launch summary", () => {
  it("asks the server to plan the form's buys", async () => {
    const bodies = planServer();
    renderInApp(<Summary />);
    await screen.findByTestId("summary-total");

    expect(bodies).toEqual([
      {
        creatorBuy: "0",
        tip: "0.001",
        wallets: WALLETS.map(({ address, buyValue }) => ({ address, buyValue })),
      },
    ]);
  });

  it("shows the server's total cost", async () => {
    planServer();
    renderInApp(<Summary />);

    expect((await screen.findByTestId("summary-total")).textContent).toBe("0.5386 BNB");
  });

  it("shows the bundle's share of supply as the server quotes it", async () => {
    planServer();
    renderInApp(<Summary />);

    expect((await screen.findByTestId("summary-share")).textContent).toBe("1.04%");
  });

  it("shows each wallet's spend, gas and share of supply", async () => {
    planServer();
    renderInApp(<Summary />);
    await screen.findByTestId("summary-total");

    const cells = within(row("0x2222…2222")).getAllByRole("cell");
    expect(cells.map((cell) => cell.textContent)).toEqual([
      "0x2222…2222",
      "0.0100",
      "0.0003",
      "0.35%",
    ]);
  });

  it("shows the creator buy and its share", async () => {
    const plan = planFixture();
    planServer({
      ...plan,
      creator: {
        ...plan.creator,
        address: "0x4444444444444444444444444444444444444444",
        buyValue: "0.25",
        sharePercent: "8.1234",
      },
    });
    renderInApp(<Summary />);
    await screen.findByTestId("summary-total");

    const cells = within(row("0x4444…4444")).getAllByRole("cell");
    expect(cells.map((cell) => cell.textContent)).toEqual([
      "0x4444…4444 · creator",
      "0.2500",
      "0.0020",
      "8.1234%",
    ]);
  });

  it("shows the launchpad's fee on the creator buy as its own line of the totals", async () => {
    const plan = planFixture();
    planServer({
      ...plan,
      totals: { ...plan.totals, creatorBuy: "0.25", creatorBuyFee: "0.0025" },
    });
    renderInApp(<Summary />);
    await screen.findByTestId("summary-total");

    expect(
      screen.getByText("Fee on the creator buy (sent with the create)").nextSibling?.textContent,
    ).toBe("0.0025 BNB");
  });

  it("marks the delayed sniper", async () => {
    const plan = planFixture();
    const [first, second] = plan.wallets;
    if (!first || !second) throw new Error("the fixture has two wallets");
    planServer({ ...plan, wallets: [first, { ...second, bundle: null, delayed: true }] });
    renderInApp(<Summary />);
    await screen.findByTestId("summary-total");

    expect(row("0x3333…3333").textContent).toContain("delayed sniper");
  });

  it("shows gas at the launch's gas price and the tips per bundle", async () => {
    planServer();
    renderInApp(<Summary />);
    await screen.findByTestId("summary-total");

    expect(screen.getByText("Gas (at 1 gwei)").nextSibling?.textContent).toBe("0.0026 BNB");
    expect(screen.getByText("Builder tips (0.0010 × 1)").nextSibling?.textContent).toBe(
      "0.0010 BNB",
    );
  });

  it("shows the curve's warning", async () => {
    planServer(
      planFixture({
        curve: { graduates: true, soldOut: false, warning: "The bundle fills the curve" },
      }),
    );
    renderInApp(<Summary />);

    expect((await screen.findByRole("alert")).textContent).toContain("The bundle fills the curve");
  });

  it("shows calculating... while the first plan loads", async () => {
    let answer = () => {};
    planServer(planFixture(), new Promise((resolve) => (answer = resolve)));
    renderInApp(<Summary />);

    expect(await screen.findByText("calculating...")).toBeTruthy();
    expect(screen.queryByTestId("summary-total")).toBeNull();
    answer();
    await screen.findByTestId("summary-total");
  });

  it("shows the server's reason when the plan fails", async () => {
    server.use(
      http.post("/api/bundle/plan", () =>
        HttpResponse.json(
          { success: false, error: "Address must be one of the imported wallet addresses" },
          { status: 400 },
        ),
      ),
    );
    renderInApp(<Summary />);

    expect((await screen.findByRole("alert")).textContent).toBe(
      "Address must be one of the imported wallet addresses",
    );
  });

  it("asks for no plan while the tip is not a BNB amount", async () => {
    const bodies = planServer();
    renderInApp(<Summary form={{ ...EMPTY_LAUNCH_FORM, tip: "abc" }} />);

    await screen.findByText("The summary shows once every amount is a valid BNB amount.");
    expect(bodies).toEqual([]);
  });
});
