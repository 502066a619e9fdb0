import type { LaunchPlan } from "@bundler/shared";
import { fireEvent, screen } from "@testing-library/react";
import { delay, HttpResponse, http } from "msw";
import { useState } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ExecuteConfirmDialog } from "../../../components/launch/execute-confirm-dialog.tsx";
import { draftFixture, LOCAL_CONFIG, planFixture } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { advance, renderInApp, settle, toastTexts } from "../../../testing/render.tsx";
import { usePlanLaunch } from "../api/plan-launch.ts";
import { useWalletFunding } from "../hooks/use-wallet-funding.ts";
import { type BundleWallet, EMPTY_LAUNCH_FORM } from "../utils/launch-form.ts";
import { mainActions } from "../utils/main-action.ts";
import { FundingPanel } from "./funding-panel.tsx";
import { MainActions } from "./main-actions.tsx";

const WALLETS: BundleWallet[] = [
  { address: "0x2222222222222222222222222222222222222222", privateKey: "0x22", buyValue: "0.01" },
  { address: "0x3333333333333333333333333333333333333333", privateKey: "0x33", buyValue: "0.02" },
];
const DEPLOYER = "0x4444444444444444444444444444444444444444";

/**
 * The create page's funding panel and main buttons, fed by its plan and balance polling;
 * [double buys] changes the form the way regenerating amounts does.
 */
function Funding({ faucet = false }: { faucet?: boolean }) {
  const [wallets, setWallets] = useState(WALLETS);
  const plan = usePlanLaunch(EMPTY_LAUNCH_FORM, wallets, true);
  const funding = useWalletFunding(plan.data, wallets, true);
  const { primary, secondary } = mainActions({
    wallets,
    missingFunds: funding.missingFunds,
    status: null,
  });
  return (
    <>
      <FundingPanel
        rows={funding.rows}
        balances={funding.balances}
        faucet={faucet}
        funding={false}
        planning={plan.isFetching}
        refreshing={funding.refreshing}
        onFund={() => {}}
        onRefresh={funding.refresh}
      />
      <MainActions
        primary={primary}
        secondary={secondary}
        editing={false}
        busy={false}
        onPrimary={() => {}}
        onMissingFunds={() => {}}
        onPay={() => {}}
        onExecute={() => {}}
      />
      <button
        type="button"
        onClick={() =>
          setWallets(wallets.map((w) => ({ ...w, buyValue: String(Number(w.buyValue) * 2) })))
        }
      >
        [double buys]
      </button>
    </>
  );
}

/**
 * The plan route: answers `plan` (the fixture's: each wallet needs its buy plus 0.0003 gas),
 * `latency` ms after being asked.
 */
function planServer(plan: LaunchPlan = planFixture(), latency = 0) {
  server.use(
    http.post("/api/bundle/plan", async () => {
      await delay(latency);
      return HttpResponse.json({ success: true, plan });
    }),
  );
  return plan;
}

/** The balances route: answers `balances` (by address) and records each request's addresses. */
function balanceServer(balances: Record<string, string>) {
  const requests: string[][] = [];
  server.use(
    http.post("/api/wallets/balances", async ({ request }) => {
      const { addresses } = (await request.json()) as { addresses: string[] };
      requests.push(addresses);
      return HttpResponse.json({
        success: true,
        message: "ok",
        asOfBlock: "1",
        balances: addresses.map((address) => ({ address, balance: balances[address] ?? "0" })),
      });
    }),
  );
  return requests;
}

/** Gives every address the plan funds what the plan says it must hold. */
const fundAll = (plan: LaunchPlan, balances: Record<string, string>) => {
  for (const entry of plan.funding) balances[entry.address] = entry.required;
};

const button = (name: string) => screen.queryByRole("button", { name });

beforeEach(() => {
  vi.useFakeTimers();
});

describe("the funding panel", () => {
  it("asks for every wallet's balance in one request", async () => {
    planServer();
    const requests = balanceServer({});
    renderInApp(<Funding />);
    await settle();

    expect(requests).toEqual([WALLETS.map((wallet) => wallet.address)]);
  });

  it("asks for the balance of a deployer the plan funds too", async () => {
    const plan = planFixture();
    planServer({
      ...plan,
      funding: [
        { address: DEPLOYER, roles: ["deployer", "tip payer"], required: "0.008" },
        ...plan.funding,
      ],
    });
    const requests = balanceServer({});
    renderInApp(<Funding />);
    await settle();

    expect(requests.at(-1)).toEqual([...WALLETS.map((wallet) => wallet.address), DEPLOYER]);
    expect(screen.getByText("deployer, tip payer")).toBeTruthy();
  });

  it("asks again every 10 seconds while funds are missing", async () => {
    planServer();
    const requests = balanceServer({});
    renderInApp(<Funding />);
    await settle();

    await advance(9_900);
    expect(requests).toHaveLength(1);
    await advance(100);
    expect(requests).toHaveLength(2);
    await advance(10_000);
    expect(requests).toHaveLength(3);
  });

  it("shows each address's balance against what the plan says it must hold", async () => {
    planServer();
    balanceServer({ [WALLETS[0]?.address ?? ""]: "0.005" });
    renderInApp(<Funding />);
    await settle();

    expect(screen.getByText("0.0050 / 0.0103 BNB")).toBeTruthy();
    expect(screen.getByText("0.0000 / 0.0203 BNB")).toBeTruthy();
  });

  it("says what a short wallet lacks with the same figure as the drafts page's execute confirmation", async () => {
    const draft = draftFixture({ status: "paid" });
    const plan = planFixture();
    const uneven = {
      ...plan,
      funding: plan.funding.map((entry, i) => ({
        ...entry,
        required: i === 0 ? "0.02302" : entry.required,
      })),
    };
    planServer(uneven);
    server.use(
      http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
      http.get(`/api/draft/${draft._id}/summary`, () =>
        HttpResponse.json({ success: true, plan: uneven }),
      ),
    );
    balanceServer({});
    renderInApp(
      <>
        <Funding />
        <ExecuteConfirmDialog draft={draft} onConfirm={() => {}} onCancel={() => {}} />
      </>,
    );
    await settle();

    const address = WALLETS[0]?.address ?? "";
    const dialogRow = screen
      .getByTestId("execute-shortfalls")
      .querySelector(`[data-address="${address}"]`);
    const panelRow = document
      .querySelector("section[aria-labelledby='section-funding']")
      ?.querySelector(`[data-address="${address}"]`);
    expect(dialogRow?.textContent).toContain("lacks 0.0231 BNB");
    expect(panelRow?.textContent).toContain("0.0000 / 0.0231 BNB");
    expect(panelRow?.textContent).toContain("lacks 0.0231 BNB");
  });

  it("counts a wallet that holds its buy value but not its gas as missing funds", async () => {
    planServer();
    balanceServer(Object.fromEntries(WALLETS.map((wallet) => [wallet.address, wallet.buyValue])));
    renderInApp(<Funding />);
    await settle();

    expect(button("Missing Funds (Go to Disperser)")).not.toBeNull();
    expect(button("Pay Now")).toBeNull();
  });

  it("offers Pay Now once every address holds what the plan requires", async () => {
    const plan = planServer();
    const balances: Record<string, string> = {};
    fundAll(plan, balances);
    balanceServer(balances);
    renderInApp(<Funding />);
    await settle();

    expect(button("Pay Now")).not.toBeNull();
    expect(button("Missing Funds (Go to Disperser)")).toBeNull();
  });

  it("counts wallets holding their buy values as funded while the plan cannot be had", async () => {
    server.use(
      http.post("/api/bundle/plan", () =>
        HttpResponse.json({ success: false, error: "No chain" }, { status: 503 }),
      ),
    );
    balanceServer(Object.fromEntries(WALLETS.map((wallet) => [wallet.address, wallet.buyValue])));
    renderInApp(<Funding />);
    await settle();

    expect(button("Pay Now")).not.toBeNull();
  });

  it("waits for the new plan before offering the faucet", async () => {
    planServer(planFixture(), 1_000);
    balanceServer({});
    renderInApp(<Funding faucet />);
    await settle();
    await advance(1_000);
    expect(button("[fund all]")?.hasAttribute("disabled")).toBe(false);

    fireEvent.click(screen.getByRole("button", { name: "[double buys]" }));
    await settle();
    expect(button("[fund all]")?.hasAttribute("disabled")).toBe(true);

    await advance(1_000);
    expect(button("[fund all]")?.hasAttribute("disabled")).toBe(false);
  });

  it("toasts once every address is funded", async () => {
    const plan = planServer();
    const balances: Record<string, string> = {};
    balanceServer(balances);
    renderInApp(<Funding />);
    await settle();
    expect(toastTexts()).toEqual([]);

    fundAll(plan, balances);
    await advance(10_000);
    expect(toastTexts()).toEqual(["All wallets are funded"]);
  });

  it("does not toast when a plan arriving late names a deployer that is already funded", async () => {
    const fixture = planFixture();
    const plan = planServer(
      {
        ...fixture,
        funding: [
          { address: DEPLOYER, roles: ["deployer"], required: "0.007" },
          ...fixture.funding,
        ],
      },
      1_000,
    );
    const balances: Record<string, string> = {};
    fundAll(plan, balances);
    balanceServer(balances);
    renderInApp(<Funding />);
    await settle();

    await advance(1_000);
    expect(screen.getByText("0.0070 / 0.0070 BNB")).toBeTruthy();
    expect(toastTexts()).toEqual([]);
  });

  it("stops asking once every address is funded", async () => {
    const plan = planServer();
    const balances: Record<string, string> = {};
    const requests = balanceServer(balances);
    renderInApp(<Funding />);
    await settle();
    fundAll(plan, balances);
    await advance(10_000);
    const asked = requests.length;

    await advance(60_000);
    expect(requests).toHaveLength(asked);
  });
});
