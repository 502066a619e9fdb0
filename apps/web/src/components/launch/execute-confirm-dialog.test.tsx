import type { LaunchPlan } from "@bundler/shared";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { BUNDLER_WALLETS_KEY } from "../../lib/bundler-wallets.ts";
import { draftFixture, LOCAL_CONFIG, planFixture } from "../../testing/fixtures.ts";
import { server } from "../../testing/msw-server.ts";
import { LocationProbe, renderInApp } from "../../testing/render.tsx";
import { ExecuteConfirmDialog } from "./execute-confirm-dialog.tsx";

const draft = draftFixture({ status: "paid" });
const SUMMARY_PATH = `/api/draft/${draft._id}/summary`;

/**
 * The draft's summary route, answering `plan` once `answer` lets it, and the balances route,
 * answering `balances` (by default every address holds what the plan says it must).
 */
function summaryServer(
  plan: LaunchPlan = planFixture(),
  answer: Promise<void> = Promise.resolve(),
  balances: Record<string, string> = Object.fromEntries(
    plan.funding.map((f) => [f.address, f.required]),
  ),
) {
  server.use(
    http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    http.get(SUMMARY_PATH, async () => {
      await answer;
      return HttpResponse.json({ success: true, plan });
    }),
    http.post("/api/wallets/balances", async ({ request }) => {
      const { addresses } = (await request.json()) as { addresses: string[] };
      return HttpResponse.json({
        success: true,
        message: "",
        asOfBlock: "1",
        balances: addresses.map((address) => ({ address, balance: balances[address] ?? "0" })),
      });
    }),
  );
}

const renderDialog = () => {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  renderInApp(
    <>
      <ExecuteConfirmDialog draft={draft} onConfirm={onConfirm} onCancel={onCancel} />
      <LocationProbe />
    </>,
  );
  return { onConfirm, onCancel };
};

const SHORT_A = "0x2222222222222222222222222222222222222222";
const SHORT_B = "0x3333333333333333333333333333333333333333";

/** The local chain's faucet: each payment waits for `release`, then adds to `balances`. */
function faucetServer(balances: Record<string, string>) {
  const paid: Array<{ address: string; amount: string }> = [];
  const waiting: Array<() => void> = [];
  server.use(
    http.get("/api/config", () =>
      HttpResponse.json({ success: true, config: { ...LOCAL_CONFIG, faucet: true } }),
    ),
    http.post("/api/dev/faucet", async ({ request }) => {
      const body = (await request.json()) as { address: string; amount: string };
      await new Promise<void>((resolve) => waiting.push(resolve));
      paid.push(body);
      balances[body.address] = String(Number(balances[body.address] ?? "0") + Number(body.amount));
      return HttpResponse.json({
        success: true,
        hash: `0x${"ab".repeat(32)}`,
        amount: body.amount,
      });
    }),
  );
  return { paid, release: () => waiting.shift()?.() };
}

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
      http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
      http.get(SUMMARY_PATH, () =>
        HttpResponse.json({ success: false, error: "No chain is configured" }, { status: 503 }),
      ),
    );
    renderDialog();

    expect(await screen.findByText("No chain is configured")).toBeTruthy();
  });

  it("still lets the launch be confirmed when the summary fails", async () => {
    server.use(
      http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
      http.get(SUMMARY_PATH, () =>
        HttpResponse.json({ success: false, error: "No chain is configured" }, { status: 503 }),
      ),
    );
    const { onConfirm } = renderDialog();
    await screen.findByText("No chain is configured");

    fireEvent.click(screen.getByRole("button", { name: "[launch]" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it("lists every short wallet with what it lacks, to 4 decimals, and does not let the launch go", async () => {
    const plan = planFixture();
    summaryServer(plan, Promise.resolve(), {
      "0x2222222222222222222222222222222222222222": "0.01",
      "0x3333333333333333333333333333333333333333": "0.00001",
    });
    const { onConfirm } = renderDialog();

    const short = await screen.findByTestId("execute-shortfalls");
    expect(short.textContent).toContain("2 wallets do not hold enough BNB for this launch");
    const rows = within(short)
      .getAllByRole("listitem")
      .map((row) => row.textContent);
    expect(rows).toEqual([
      "bundle0x2222222222222222222222222222222222222222lacks 0.0003 BNB",
      "bundle0x3333333333333333333333333333333333333333lacks 0.0203 BNB",
    ]);
    const launch = screen.getByRole("button", { name: "[launch]" }) as HTMLButtonElement;
    expect(launch.disabled).toBe(true);
    fireEvent.click(launch);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("lets a funded launch be confirmed once the balances are read", async () => {
    summaryServer();
    const { onConfirm } = renderDialog();
    const launch = screen.getByRole("button", { name: "[launch]" }) as HTMLButtonElement;

    await waitFor(() => expect(launch.disabled).toBe(false));
    expect(screen.queryByTestId("execute-shortfalls")).toBeNull();
    fireEvent.click(launch);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});

describe("funding from the execute confirmation", () => {
  it("offers [fund all] on the local chain, shows each payment in its row and lets the launch go once funded", async () => {
    const balances: Record<string, string> = { [SHORT_A]: "0.01", [SHORT_B]: "0" };
    summaryServer(planFixture(), Promise.resolve(), balances);
    const faucet = faucetServer(balances);
    const { onConfirm } = renderDialog();
    const short = await screen.findByTestId("execute-shortfalls");

    fireEvent.click(await within(short).findByRole("button", { name: "[fund all]" }));
    const stepOf = (address: string) =>
      short.querySelector(`[data-address="${address}"] [data-testid='faucet-step']`);
    await waitFor(() => expect(stepOf(SHORT_A)?.textContent?.trim()).toBe("sending..."));
    expect(stepOf(SHORT_B)?.textContent).toBe("queued");
    faucet.release();
    await waitFor(() => expect(stepOf(SHORT_A)?.textContent).toBe("confirmed 0xabab…abab"));
    faucet.release();

    // What each lacked plus 0.01 BNB to spare; then the balances are read again.
    await waitFor(() => expect(screen.queryByTestId("execute-shortfalls")).toBeNull());
    expect(faucet.paid).toEqual([
      { address: SHORT_A, amount: "0.0103" },
      { address: SHORT_B, amount: "0.0303" },
    ]);
    const launch = screen.getByRole("button", { name: "[launch]" }) as HTMLButtonElement;
    await waitFor(() => expect(launch.disabled).toBe(false));
    fireEvent.click(launch);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it("offers no faucet where the chain has none", async () => {
    summaryServer(planFixture(), Promise.resolve(), {});
    renderDialog();
    const short = await screen.findByTestId("execute-shortfalls");

    expect(within(short).queryByRole("button", { name: "[fund all]" })).toBeNull();
  });

  it("hands the short wallets to the disperser with what each lacks", async () => {
    localStorage.removeItem(BUNDLER_WALLETS_KEY);
    summaryServer(planFixture(), Promise.resolve(), { [SHORT_A]: "0.01" });
    const { onCancel } = renderDialog();
    const short = await screen.findByTestId("execute-shortfalls");

    fireEvent.click(within(short).getByRole("button", { name: "[fund with disperser]" }));
    expect(JSON.parse(localStorage.getItem(BUNDLER_WALLETS_KEY) ?? "[]")).toEqual([
      { address: SHORT_A, buyValue: "0.0003" },
      { address: SHORT_B, buyValue: "0.0203" },
    ]);
    expect(screen.getByTestId("location").textContent).toBe("/disperser?autoImport=true");
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});

describe("the execute confirmation's cost", () => {
  it("leaves the launch fee already paid out of the total, and says so on its own line", async () => {
    const plan = planFixture();
    summaryServer({ ...plan, totals: { ...plan.totals, launchFeePaid: true } });
    renderDialog();

    expect((await screen.findByTestId("execute-total")).textContent).toBe("0.0386 BNB");
    expect(screen.getByTestId("execute-total-label").textContent).toBe("Still to spend");
    expect(screen.getByTestId("execute-launch-fee").textContent).toBe("0.5000 BNB, paid");
  });
});
