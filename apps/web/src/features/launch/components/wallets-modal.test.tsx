import { fireEvent, screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp, settle } from "../../../testing/render.tsx";
import { useWalletFunding } from "../hooks/use-wallet-funding.ts";
import type { BundleWallet } from "../utils/launch-form.ts";
import { WalletsModal } from "./wallets-modal.tsx";

const WALLET: BundleWallet = {
  address: "0x2222222222222222222222222222222222222222",
  privateKey: `0x${"22".repeat(32)}`,
  buyValue: "0.01",
};

/** The generated-wallets modal as the create page opens it, with the page's balances. */
function Wallets() {
  const funding = useWalletFunding(undefined, [WALLET], true);
  return (
    <WalletsModal
      wallets={[WALLET]}
      balances={funding.balances}
      refreshing={funding.refreshing}
      onRefresh={funding.refresh}
      onClose={() => {}}
    />
  );
}

beforeEach(() => {
  vi.useFakeTimers();
});

describe("the generated-wallets modal", () => {
  it("lists each wallet with its key, buy value and balance", async () => {
    server.use(
      http.post("/api/wallets/balances", () =>
        HttpResponse.json({
          success: true,
          message: "ok",
          asOfBlock: "1",
          balances: [{ address: WALLET.address, balance: "0.004" }],
        }),
      ),
    );
    renderInApp(<Wallets />);
    await settle();

    expect(screen.getByText(WALLET.address)).toBeTruthy();
    expect(screen.getByText(WALLET.privateKey)).toBeTruthy();
    expect(screen.getByText("buy 0.0100 · bal 0.0040 BNB")).toBeTruthy();
  });

  it("shows the new balances at once on [refresh]", async () => {
    let balance = "0";
    server.use(
      http.post("/api/wallets/balances", () =>
        HttpResponse.json({
          success: true,
          message: "ok",
          asOfBlock: "1",
          balances: [{ address: WALLET.address, balance }],
        }),
      ),
    );
    renderInApp(<Wallets />);
    await settle();
    expect(screen.getByText("buy 0.0100 · bal 0.0000 BNB")).toBeTruthy();

    balance = "0.02";
    fireEvent.click(screen.getByRole("button", { name: "[refresh]" }));
    await settle();
    expect(screen.getByText("buy 0.0100 · bal 0.0200 BNB")).toBeTruthy();
  });
});
