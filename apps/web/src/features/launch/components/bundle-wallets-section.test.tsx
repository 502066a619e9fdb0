import { fireEvent, screen, waitFor } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp } from "../../../testing/render.tsx";
import { useLaunchActions } from "../hooks/use-launch-actions.ts";
import { type BundleWallet, EMPTY_LAUNCH_FORM, type LaunchForm } from "../utils/launch-form.ts";
import { BundleWalletsSection } from "./bundle-wallets-section.tsx";

const WALLETS: BundleWallet[] = [
  { address: "0x2222222222222222222222222222222222222222", privateKey: "0x22", buyValue: "0.01" },
  { address: "0x3333333333333333333333333333333333333333", privateKey: "0x33", buyValue: "0.02" },
];

/** The Bundle Wallets section wired to the create page's actions and state. */
function Section({ initial }: { initial: BundleWallet[] }) {
  const [form, setForm] = useState<LaunchForm>({
    ...EMPTY_LAUNCH_FORM,
    minBuyAmount: "0.01",
    maxBuyAmount: "0.02",
    buyUnitPercent: false,
  });
  const [wallets, setWallets] = useState(initial);
  const actions = useLaunchActions({
    draftId: null,
    status: null,
    form,
    wallets,
    setWallets,
    balances: undefined,
    refreshBalances: () => {},
    onReadyToLaunch: () => {},
  });
  return (
    <>
      <BundleWalletsSection
        form={form}
        set={(field, value) => setForm((current) => ({ ...current, [field]: value }))}
        wallets={wallets}
        onAddWallets={() => {}}
        onClearWallets={() => setWallets([])}
        onViewWallets={() => {}}
        onRegenerateAmounts={() => void actions.onGenerateAmounts()}
        regenerating={actions.busy.amounts}
      />
      <ul>
        {wallets.map((wallet) => (
          <li key={wallet.address} data-testid="buy-value">
            {wallet.buyValue}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The amounts route: records each request's body and answers `buyValue` for every wallet. */
function amountsServer(buyValue: string) {
  const bodies: unknown[] = [];
  server.use(
    http.post("/api/wallets/gen/amounts", async ({ request }) => {
      const body = (await request.json()) as { wallets: string[] };
      bodies.push(body);
      return HttpResponse.json({
        success: true,
        message: "ok",
        bnbAmounts: body.wallets.map((address) => ({ address, buyValue, tokenAmount: "1" })),
        curve: { graduates: false, soldOut: false, warning: null },
      });
    }),
  );
  return bodies;
}

const buyValues = () => screen.getAllByTestId("buy-value").map((item) => item.textContent);

describe("[regenerate amounts]", () => {
  it("is offered only once the wallets have amounts", () => {
    renderInApp(<Section initial={WALLETS.map((wallet) => ({ ...wallet, buyValue: "0" }))} />);

    expect(screen.queryByRole("button", { name: "[regenerate amounts]" })).toBeNull();
  });

  it("asks for new amounts with the current min and max", async () => {
    const bodies = amountsServer("0.07");
    renderInApp(<Section initial={WALLETS} />);
    fireEvent.change(screen.getByLabelText("Min buy"), { target: { value: "0.05" } });
    fireEvent.change(screen.getByLabelText("Max buy"), { target: { value: "0.08" } });

    fireEvent.click(screen.getByRole("button", { name: "[regenerate amounts]" }));
    await waitFor(() => expect(bodies).toHaveLength(1));

    expect(bodies).toEqual([
      {
        wallets: WALLETS.map((wallet) => wallet.address),
        minBuyAmount: "0.05",
        maxBuyAmount: "0.08",
        isPercentage: false,
        creatorBuy: "0",
      },
    ]);
  });

  it("gives every wallet its new amount", async () => {
    amountsServer("0.07");
    renderInApp(<Section initial={WALLETS} />);

    fireEvent.click(screen.getByRole("button", { name: "[regenerate amounts]" }));

    await waitFor(() => expect(buyValues()).toEqual(["0.07", "0.07"]));
  });
});
