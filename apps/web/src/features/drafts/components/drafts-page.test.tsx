import type { DraftSummary } from "@bundler/shared";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import {
  draftHandler,
  draftStatusHandler,
  draftsListHandler,
} from "../../../testing/drafts-handlers.ts";
import {
  draftFixture,
  draftSummaries,
  LOCAL_CONFIG,
  PAYMENT_ADDRESS,
} from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import {
  advance,
  LocationProbe,
  renderInApp,
  settle,
  toastTexts,
} from "../../../testing/render.tsx";
import { DraftsPage } from "./drafts-page.tsx";

const KEY = "lbk_test_key";

const configHandler = http.get("/api/config", () =>
  HttpResponse.json({ success: true, config: LOCAL_CONFIG }),
);

/** The page at `route` over `drafts`, with the list handler's record of pages asked. */
function renderPage(drafts: () => DraftSummary[], route = "/drafts") {
  const list = draftsListHandler(drafts);
  server.use(configHandler, list.handler);
  renderInApp(
    <>
      <DraftsPage />
      <LocationProbe />
    </>,
    { route, authKey: KEY },
  );
  return list;
}

const cards = () => screen.queryAllByTestId("draft-card");
const names = () => cards().map((card) => within(card).getByRole("heading").textContent);
const location = () => screen.getByTestId("location").textContent;

describe("the drafts page", () => {
  it("shows three skeletons while the first page loads", async () => {
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      configHandler,
      http.get("/api/draft/list", async () => {
        await held;
        return HttpResponse.json({ success: true, drafts: [], total: 0, page: 1, pageSize: 9 });
      }),
    );
    renderInApp(<DraftsPage />, { route: "/drafts", authKey: KEY });

    expect(screen.getAllByTestId("draft-skeleton")).toHaveLength(3);
    answer();
    await screen.findByTestId("drafts-empty");
    expect(screen.queryAllByTestId("draft-skeleton")).toHaveLength(0);
  });

  it("shows the server's page of nine and pages with [next] and [prev], the page in the URL", async () => {
    const all = draftSummaries(11);
    const list = renderPage(() => all);

    await screen.findByText("Showing 1-9 of 11");
    expect(names()).toEqual(all.slice(0, 9).map((d) => d.tokenInfo.name));
    expect(list.asked).toEqual([1]);

    fireEvent.click(screen.getByRole("button", { name: "[next]" }));
    await screen.findByText("Showing 10-11 of 11");
    expect(names()).toEqual(["Draft 10", "Draft 11"]);
    expect(list.asked).toEqual([1, 2]);
    expect(location()).toBe("/drafts?page=2");
    expect(screen.getByRole("button", { name: "Page 2" }).getAttribute("aria-current")).toBe(
      "page",
    );

    fireEvent.click(screen.getByRole("button", { name: "[prev]" }));
    await screen.findByText("Showing 1-9 of 11");
    expect(location()).toBe("/drafts");
    fireEvent.click(screen.getByRole("button", { name: "Page 2" }));
    await screen.findByText("Showing 10-11 of 11");
  });

  it("opens the page the URL names, so a reload keeps it", async () => {
    const list = renderPage(() => draftSummaries(11), "/drafts?page=2");

    await screen.findByText("Showing 10-11 of 11");
    expect(list.asked).toEqual([2]);
  });

  it("goes to the last page when the page asked is past the end", async () => {
    const list = renderPage(() => draftSummaries(11), "/drafts?page=5");

    await screen.findByText("Showing 10-11 of 11");
    expect(list.asked).toEqual([5, 2]);
    expect(location()).toBe("/drafts?page=2");
  });

  it("shows each logo from its URL, and the ticker's letters without one", async () => {
    const [withLogo, without] = draftSummaries(2) as [DraftSummary, DraftSummary];
    withLogo.tokenInfo.imageUrl = `/api/draft/logo/${"ab".repeat(32)}`;
    renderPage(() => [withLogo, without]);

    await screen.findByText("Showing 1-2 of 2");
    const [first, second] = cards() as [HTMLElement, HTMLElement];
    expect(within(first).getByTestId("draft-image").getAttribute("src")).toBe(
      `/api/draft/logo/${"ab".repeat(32)}`,
    );
    expect(within(second).queryByTestId("draft-image")).toBeNull();
    expect(within(second).getByTestId("draft-image-placeholder").textContent).toBe("D2");
  });

  it("links an empty list to the launch page", async () => {
    renderPage(() => []);

    const empty = await screen.findByTestId("drafts-empty");
    expect(within(empty).getByText("No drafts yet.")).toBeTruthy();
    expect(within(empty).getByRole("link").getAttribute("href")).toBe("/");
    expect(screen.queryByText(/^Showing/)).toBeNull();
  });

  it("says 'Failed to fetch drafts' when the list fails", async () => {
    server.use(
      configHandler,
      http.get("/api/draft/list", () =>
        HttpResponse.json({ success: false, error: "boom" }, { status: 500 }),
      ),
    );
    renderInApp(<DraftsPage />, { route: "/drafts", authKey: KEY });

    expect((await screen.findByRole("alert")).textContent).toContain("Failed to fetch drafts");
  });

  it("opens the payment for ?pay={id} even when that draft is on another page, asking for it by id", async () => {
    const elsewhere = draftFixture({ _id: "9a9a9a9a-8a51-4c9d-9a57-6f1c2b3d4e5f" });
    const one = draftHandler(() => elsewhere);
    server.use(
      one.handler,
      http.post(`/api/draft/${elsewhere._id}/payment`, () =>
        HttpResponse.json({
          success: true,
          paymentAddress: PAYMENT_ADDRESS,
          paymentAmount: "0.5",
          expiresAt: new Date(Date.now() + 600_000).toISOString(),
        }),
      ),
      http.get(`/api/draft/${elsewhere._id}/payment/status`, () =>
        HttpResponse.json({
          success: true,
          isPaid: false,
          status: "pending_payment",
          received: "0",
          expiresAt: null,
        }),
      ),
    );
    renderPage(() => draftSummaries(3), `/drafts?pay=${elsewhere._id}`);

    const dialog = await screen.findByTestId("payment-dialog");
    expect(within(dialog).getByText("Moon Cat (MCAT)")).toBeTruthy();
    expect(one.state.calls).toBe(1);
    await waitFor(() => expect(location()).toBe("/drafts"));
  });

  it("does not open ?pay for a draft that is not in status draft, and drops the parameter", async () => {
    const [pending, ...rest] = draftSummaries(3) as [DraftSummary, ...DraftSummary[]];
    pending.status = "pending_payment";
    const one = draftHandler(() => draftFixture());
    server.use(one.handler);
    renderPage(() => [pending, ...rest], `/drafts?pay=${pending._id}`);

    await screen.findByText("Showing 1-3 of 3");
    await waitFor(() => expect(location()).toBe("/drafts"));
    expect(screen.queryByTestId("payment-dialog")).toBeNull();
    // It was on the page: no need to ask for it by id.
    expect(one.state.calls).toBe(0);
  });

  it("says what a draft misses on Pay, without asking the server for a payment", async () => {
    const [unready, ready] = draftSummaries(2) as [DraftSummary, DraftSummary];
    unready.launchProblem = "Please upload a logo";
    let paymentsAsked = 0;
    server.use(
      http.post("/api/draft/:id/payment", () => {
        paymentsAsked += 1;
        return HttpResponse.json(
          { success: false, error: "Please upload a logo" },
          { status: 400 },
        );
      }),
    );
    renderPage(() => [unready, ready]);
    await screen.findByText("Showing 1-2 of 2");
    const [first, second] = cards() as [HTMLElement, HTMLElement];
    expect(within(first).getByTestId("draft-launch-problem").textContent).toBe(
      "Not ready to launch: Please upload a logo",
    );
    expect(within(second).queryByTestId("draft-launch-problem")).toBeNull();

    fireEvent.click(within(first).getByRole("button", { name: "Pay Now" }));
    await waitFor(() => expect(toastTexts()).toEqual(["Please upload a logo"]));
    expect(paymentsAsked).toBe(0);
    expect(screen.queryByTestId("payment-dialog")).toBeNull();
  });

  it("says what a paid draft misses on Execute Launch instead of opening the confirmation", async () => {
    const [paid] = draftSummaries(1) as [DraftSummary];
    paid.status = "paid";
    paid.launchProblem = "Invalid deployer private key";
    renderPage(() => [paid]);
    await screen.findByText("Showing 1-1 of 1");

    fireEvent.click(screen.getByRole("button", { name: "Execute Launch" }));
    await waitFor(() => expect(toastTexts()).toEqual(["Invalid deployer private key"]));
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
  });

  it("does not open ?pay for a draft that is not launch-ready, and says why", async () => {
    const [unready, ...rest] = draftSummaries(2) as [DraftSummary, ...DraftSummary[]];
    unready.launchProblem = "Please enter a tip amount";
    renderPage(() => [unready, ...rest], `/drafts?pay=${unready._id}`);

    await screen.findByText("Showing 1-2 of 2");
    await waitFor(() => expect(location()).toBe("/drafts"));
    await waitFor(() => expect(toastTexts()).toEqual(["Please enter a tip amount"]));
    expect(screen.queryByTestId("payment-dialog")).toBeNull();
  });

  it("polls the list and the launching draft's status every 5 s while the terminal is open, and follows it off the page", async () => {
    vi.useFakeTimers();
    const [launching, ...others] = draftSummaries(4) as [DraftSummary, ...DraftSummary[]];
    launching.status = "executing";
    let shown = [launching, ...others];
    let liveStatus: DraftSummary["status"] = "executing";
    // The status alone, from the payment status route: never the whole draft with its keys.
    const one = draftStatusHandler(launching._id, () => liveStatus);
    const whole = draftHandler(() => draftFixture({ _id: launching._id, status: liveStatus }));
    server.use(one.handler, whole.handler);
    const list = renderPage(() => shown);
    await settle();
    expect(list.asked).toEqual([1]);

    fireEvent.click(
      within(cards()[0] as HTMLElement).getByRole("button", { name: "[open terminal]" }),
    );
    await settle();
    expect(screen.getByTestId("bundle-terminal")).toBeTruthy();
    expect(one.state.calls).toBe(1);

    await advance(5_000);
    expect(list.asked).toEqual([1, 1]);
    expect(one.state.calls).toBe(2);

    // It launched: it left this page of the list, and its own status says so.
    shown = others;
    liveStatus = "executed";
    await advance(5_000);
    expect(screen.getByTestId("terminal-outcome").textContent).toBe("Launch complete");

    fireEvent.click(screen.getByRole("button", { name: "[dismiss]" }));
    await settle();
    const asked = list.asked.length;
    const calls = one.state.calls;
    await advance(15_000);
    expect(list.asked.length).toBe(asked);
    expect(one.state.calls).toBe(calls);
    expect(whole.state.calls).toBe(0);
  });

  it("links a launched draft to its read-only page instead of an edit link", async () => {
    const [draft] = draftSummaries(1);
    if (!draft) throw new Error("no draft");
    renderPage(() => [{ ...draft, status: "executed" }]);
    const card = (await screen.findAllByTestId("draft-card"))[0] as HTMLElement;

    expect(within(card).queryByRole("link", { name: "[edit]" })).toBeNull();
    expect(within(card).getByRole("link", { name: "[view launch]" }).getAttribute("href")).toBe(
      `/create?draft=${draft._id}`,
    );
  });
});
