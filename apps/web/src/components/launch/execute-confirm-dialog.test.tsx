import type { LaunchPlan } from "@bundler/shared";
import { fireEvent, screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { draftFixture, planFixture } from "../../testing/fixtures.ts";
import { server } from "../../testing/msw-server.ts";
import { renderInApp } from "../../testing/render.tsx";
import { ExecuteConfirmDialog } from "./execute-confirm-dialog.tsx";

const draft = draftFixture({ status: "paid" });
const SUMMARY_PATH = `/api/draft/${draft._id}/summary`;

/** The draft's summary route, answering `plan` once `answer` lets it. */
function summaryServer(
  plan: LaunchPlan = planFixture(),
  answer: Promise<void> = Promise.resolve(),
) {
  server.use(
    http.get(SUMMARY_PATH, async () => {
      await answer;
      return HttpResponse.json({ success: true, plan });
    }),
  );
}

const renderDialog = () => {
  const onConfirm = vi.fn();
  renderInApp(<ExecuteConfirmDialog draft={draft} onConfirm={onConfirm} onCancel={() => {}} />);
  return { onConfirm };
};

describe("the execute confirmation", () => {
  it("asks in the spec's words", () => {
    summaryServer();
    renderDialog();

    expect(
      screen.getByText("Are you ready to launch Moon Cat (MCAT)? This action cannot be undone."),
    ).toBeTruthy();
  });

  it("shows the total cost the server plans for the draft", async () => {
    summaryServer();
    renderDialog();

    expect((await screen.findByTestId("execute-total")).textContent).toBe("0.5386 BNB");
  });

  it("shows the bundle's share of supply and how many bundles carry it", async () => {
    summaryServer(planFixture({ tip: { ...planFixture().tip, bundles: 2 } }));
    renderDialog();

    expect((await screen.findByTestId("execute-share")).textContent).toBe("1.04%");
    expect(screen.getByTestId("execute-bundles").textContent).toBe("2");
  });

  it("shows the curve's warning", async () => {
    summaryServer(
      planFixture({ curve: { graduates: false, soldOut: true, warning: "The curve sells out" } }),
    );
    renderDialog();

    expect((await screen.findByRole("alert")).textContent).toContain("The curve sells out");
  });

  it("shows calculating... while the summary loads", async () => {
    let answer = () => {};
    summaryServer(planFixture(), new Promise((resolve) => (answer = resolve)));
    renderDialog();

    expect(screen.getByText("calculating...")).toBeTruthy();
    answer();
    await screen.findByTestId("execute-total");
    expect(screen.queryByText("calculating...")).toBeNull();
  });

  it("shows the server's reason when the summary fails", async () => {
    server.use(
      http.get(SUMMARY_PATH, () =>
        HttpResponse.json({ success: false, error: "No chain is configured" }, { status: 503 }),
      ),
    );
    renderDialog();

    expect(await screen.findByText("No chain is configured")).toBeTruthy();
  });

  it("still lets the launch be confirmed when the summary fails", async () => {
    server.use(
      http.get(SUMMARY_PATH, () =>
        HttpResponse.json({ success: false, error: "No chain is configured" }, { status: 503 }),
      ),
    );
    const { onConfirm } = renderDialog();
    await screen.findByText("No chain is configured");

    fireEvent.click(screen.getByRole("button", { name: "[launch]" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
