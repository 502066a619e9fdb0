import { screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { server } from "../../../testing/msw-server.ts";
import { advance, renderInApp, settle, toastTexts } from "../../../testing/render.tsx";
import { useWalletFunding } from "../hooks/use-wallet-funding.ts";
import { type BundleWallet, EMPTY_LAUNCH_FORM } from "../utils/launch-form.ts";
import { FundingPanel } from "./funding-panel.tsx";

const WALLETS: BundleWallet[] = [
  { address: "0x2222222222222222222222222222222222222222", privateKey: "0x22", buyValue: "0.01" },
  { address: "0x3333333333333333333333333333333333333333", privateKey: "0x33", buyValue: "0.02" },
];

/** The create page's funding panel, fed by its balance polling. */
function Funding() {
  const funding = useWalletFunding(EMPTY_LAUNCH_FORM, WALLETS, true);
  return (
    <FundingPanel
      rows={funding.rows}
      balances={funding.balances}
      faucet={false}
      funding={false}
      refreshing={funding.refreshing}
      onFund={() => {}}
      onRefresh={funding.refresh}
    />
  );
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
        balances: addresses.map((address) => ({ address, balance: balances[address] ?? "0" })),
      });
    }),
  );
  return requests;
}

const fundAll = (balances: Record<string, string>) => {
  for (const wallet of WALLETS) balances[wallet.address] = wallet.buyValue;
};

beforeEach(() => {
  vi.useFakeTimers();
});

describe("the funding panel", () => {
  it("asks for every wallet's balance in one request", async () => {
    const requests = balanceServer({});
    renderInApp(<Funding />);
    await settle();

    expect(requests).toEqual([WALLETS.map((wallet) => wallet.address)]);
  });

  it("asks again every 10 seconds while funds are missing", async () => {
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

  it("shows each wallet's balance against what it needs", async () => {
    balanceServer({ [WALLETS[0]?.address ?? ""]: "0.005" });
    renderInApp(<Funding />);
    await settle();

    expect(screen.getByText("0.0050 / 0.0100 BNB")).toBeTruthy();
    expect(screen.getByText("0.0000 / 0.0200 BNB")).toBeTruthy();
  });

  it("toasts once every wallet is funded", async () => {
    const balances: Record<string, string> = {};
    balanceServer(balances);
    renderInApp(<Funding />);
    await settle();
    expect(toastTexts()).toEqual([]);

    fundAll(balances);
    await advance(10_000);
    expect(toastTexts()).toEqual(["All wallets are funded"]);
  });

  it("stops asking once every wallet is funded", async () => {
    const balances: Record<string, string> = {};
    const requests = balanceServer(balances);
    renderInApp(<Funding />);
    await settle();
    fundAll(balances);
    await advance(10_000);
    const asked = requests.length;

    await advance(60_000);
    expect(requests).toHaveLength(asked);
  });
});
