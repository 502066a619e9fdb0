import { fireEvent, screen, waitFor } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { server } from "../../../testing/msw-server.ts";
import { renderInApp, toastTexts } from "../../../testing/render.tsx";
import { type BundleWallet, EMPTY_LAUNCH_FORM } from "../utils/launch-form.ts";
import { useLaunchActions } from "./use-launch-actions.ts";

const WALLET: BundleWallet = {
  address: "0x2222222222222222222222222222222222222222",
  privateKey: `0x${"22".repeat(32)}`,
  buyValue: "0.01",
};

const FORM = {
  ...EMPTY_LAUNCH_FORM,
  walletCount: "2",
  minBuyAmount: "0.01",
  maxBuyAmount: "0.02",
  buyUnitPercent: false,
};

/** The create page's buttons for generating wallets and amounts and for the faucet. */
function Actions() {
  const actions = useLaunchActions({
    draftId: null,
    status: null,
    form: FORM,
    wallets: [WALLET],
    setWallets: () => {},
    balances: new Map([[WALLET.address.toLowerCase(), "0"]]),
    refreshBalances: () => {},
    onReadyToLaunch: () => {},
  });
  return (
    <>
      <button type="button" onClick={() => void actions.onGenerateWallets()}>
        wallets
      </button>
      <button type="button" onClick={() => void actions.onGenerateAmounts()}>
        amounts
      </button>
      <button
        type="button"
        onClick={() =>
          void actions.fund([{ role: "bundle", address: WALLET.address, required: "0.01" }])
        }
      >
        faucet
      </button>
    </>
  );
}

const refuse = (error: string) => () =>
  HttpResponse.json({ success: false, error }, { status: 400 });

/** Clicks, waits for the first toast, then answers every toast on screen. */
async function toastsAfterClicking(name: string) {
  renderInApp(<Actions />);
  fireEvent.click(screen.getByRole("button", { name }));
  // Generating wallets first makes an RSA key pair, which takes a while on a busy machine.
  await waitFor(() => expect(toastTexts().length).toBeGreaterThan(0), { timeout: 5_000 });
  return toastTexts();
}

describe("useLaunchActions' failure toasts", () => {
  it("shows only the server's message when wallet generation is refused", async () => {
    server.use(http.post("/api/wallets/gen", refuse("Too many wallets for one launch")));

    expect(await toastsAfterClicking("wallets")).toEqual(["Too many wallets for one launch"]);
  });

  it("shows only the server's message when amount generation is refused", async () => {
    server.use(http.post("/api/wallets/gen/amounts", refuse("The curve cannot sell that much")));

    expect(await toastsAfterClicking("amounts")).toEqual(["The curve cannot sell that much"]);
  });

  it("shows only the server's message when the faucet is refused", async () => {
    server.use(http.post("/api/dev/faucet", refuse("The faucet is only on the local chain")));

    expect(await toastsAfterClicking("faucet")).toEqual(["The faucet is only on the local chain"]);
  });

  it("shows the catalogue's connection error once when the server cannot be reached", async () => {
    server.use(http.post("/api/wallets/gen/amounts", () => HttpResponse.error()));

    const texts = await toastsAfterClicking("amounts");
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^Connection Error - The server is currently offline/);
  });
});
