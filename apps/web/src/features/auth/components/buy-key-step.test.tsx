import { fireEvent, screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REFERRAL_CODE_KEY } from "../../../lib/referral-code.ts";
import { LOCAL_CONFIG, PAYMENT_ADDRESS } from "../../../testing/fixtures.ts";
import {
  BOUGHT_KEY,
  keyPurchaseServer,
  PAYMENT_ID,
} from "../../../testing/key-purchase-handlers.ts";
import { server } from "../../../testing/msw-server.ts";
import { advance, renderInApp, settle, toastTexts } from "../../../testing/render.tsx";
import { AuthContext, type AuthContextValue } from "../hooks/use-auth.ts";
import { KEY_PURCHASE_KEY } from "../utils/key-purchase.ts";
import { AuthModal } from "./auth-modal.tsx";

/** Nobody logged in; records what the modal stores and starts. */
function renderModal() {
  const auth = {
    state: { status: "anonymous" },
    saveSession: vi.fn(async () => {}),
    startSession: vi.fn(),
    logout: async () => {},
    getDeviceId: async () => "device-0001",
    retry: () => {},
  } satisfies AuthContextValue;
  renderInApp(
    <AuthContext.Provider value={auth}>
      <AuthModal />
    </AuthContext.Provider>,
  );
  return auth;
}

const openPurchase = async () => {
  await settle();
  fireEvent.click(screen.getByRole("button", { name: /Buy Access Key/ }));
  await settle();
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
});
afterEach(() => localStorage.clear());

describe("buying an access key", () => {
  it("offers the key beside Get Free Access at its price in USD", async () => {
    server.use(...keyPurchaseServer().handlers);
    renderModal();
    await settle();

    expect(screen.getByRole("button", { name: "Get Free Access" })).toBeTruthy();
    expect(screen.getByTestId("key-offer-price").textContent).toBe("$4.00");
    expect(screen.getByText(/Priced in USD, paid in BNB/)).toBeTruthy();
  });

  it("shows the discounted price when a referral code is remembered", async () => {
    localStorage.setItem(REFERRAL_CODE_KEY, "CATS");
    server.use(...keyPurchaseServer().handlers);
    renderModal();
    await settle();

    expect(screen.getByTestId("key-offer-price").textContent).toBe("$4.00 $3.40");
    expect(screen.getByText(/Referral code CATS: \$0\.60 off/)).toBeTruthy();
  });

  it("opens a payment for this device and shows the address, the BNB amount, QR code and countdown", async () => {
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    renderModal();
    await openPurchase();

    expect(state.starts).toEqual([{ deviceId: "device-0001" }]);
    expect(screen.getByTestId("payment-address").textContent).toBe(PAYMENT_ADDRESS);
    expect(screen.getByTestId("payment-amount").textContent).toBe("0.006666666666666666");
    expect(screen.getByTestId("payment-qr")).toBeTruthy();
    expect(screen.getByTestId("payment-countdown").textContent).toBe("10:00");
    expect(screen.getByTestId("key-price").textContent).toBe("$4.00");
    expect(screen.getByTestId("key-total").textContent).toBe("$4.00 = 0.006666666666666666 BNB");
    expect(screen.queryByTestId("key-discount")).toBeNull();
  });

  it("sends the remembered referral code and shows its discount", async () => {
    localStorage.setItem(REFERRAL_CODE_KEY, "CATS");
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    renderModal();
    await openPurchase();

    expect(state.starts).toEqual([{ deviceId: "device-0001", referralCode: "CATS" }]);
    expect(screen.getByTestId("key-discount").textContent).toBe("−$0.60");
    expect(screen.getByTestId("key-total").textContent).toBe("$3.40 = 0.005666666666666666 BNB");
  });

  it("buys at full price when the remembered code names no one, and forgets it", async () => {
    localStorage.setItem(REFERRAL_CODE_KEY, "NOBODY");
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    renderModal();
    await openPurchase();

    expect(state.starts.map((body) => body.referralCode)).toEqual(["NOBODY", undefined]);
    expect(screen.getByTestId("key-total").textContent).toContain("$4.00");
    expect(localStorage.getItem(REFERRAL_CODE_KEY)).toBeNull();
  });

  it("offers [pay from faucet] on the local chain, to a visitor without a key", async () => {
    server.use(...keyPurchaseServer().handlers);
    server.use(
      http.get("/api/config", () =>
        HttpResponse.json({ success: true, config: { ...LOCAL_CONFIG, faucet: true } }),
      ),
    );
    renderModal();
    await openPurchase();

    expect(screen.getByRole("button", { name: "[pay from faucet]" })).toBeTruthy();
  });

  it("asks for the status every 5 seconds", async () => {
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    renderModal();
    await openPurchase();
    expect(state.statusCalls).toBe(1);

    await advance(4_900);
    expect(state.statusCalls).toBe(1);
    await advance(100);
    expect(state.statusCalls).toBe(2);
  });

  it("stores the key once paid, then shows it with copy like a free key", async () => {
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    const auth = renderModal();
    await openPurchase();

    state.paid = true;
    await advance(5_000);

    expect(auth.saveSession).toHaveBeenCalledWith({ key: BOUGHT_KEY, role: "user" });
    expect(screen.getByTestId("generated-key").textContent).toBe(BOUGHT_KEY);
    expect(screen.getByRole("button", { name: "Copy access key" })).toBeTruthy();
    expect(localStorage.getItem(KEY_PURCHASE_KEY)).toBeNull();
  });

  it("keeps the bought key on screen until it is copied and Continue to App is clicked", async () => {
    Object.defineProperty(navigator, "clipboard", {
      value: { writeText: async () => {} },
      configurable: true,
    });
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    const auth = renderModal();
    await openPurchase();
    state.paid = true;
    await advance(5_000);

    await advance(60_000);
    expect(auth.startSession).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Copy access key" }));
    await settle();
    fireEvent.click(screen.getByRole("button", { name: "Continue to App" }));
    expect(auth.startSession).toHaveBeenCalledWith({ key: BOUGHT_KEY, role: "user" });
  });

  it("picks an open purchase up again after a reload, without a new payment", async () => {
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    renderModal();
    await openPurchase();
    expect(localStorage.getItem(KEY_PURCHASE_KEY)).toContain(PAYMENT_ID);

    document.body.innerHTML = "";
    renderModal();
    await settle();

    expect(state.starts).toHaveLength(1);
    expect(screen.getByTestId("payment-address").textContent).toBe(PAYMENT_ADDRESS);
  });

  it("cancels: the server closes the payment and the welcome step returns", async () => {
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    renderModal();
    await openPurchase();

    fireEvent.click(screen.getByRole("button", { name: "[cancel]" }));
    await settle();

    expect(state.cancels).toBe(1);
    expect(toastTexts()).toContain("Payment cancelled");
    expect(screen.getByRole("button", { name: "Get Free Access" })).toBeTruthy();
    expect(localStorage.getItem(KEY_PURCHASE_KEY)).toBeNull();
  });

  it("keeps asking after the countdown until the server closes the payment, then says it expired", async () => {
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    renderModal();
    await openPurchase();

    await advance(600_000);
    expect(screen.getByTestId("payment-closing")).toBeTruthy();
    expect(toastTexts()).not.toContain("Payment expired");

    state.status = "expired";
    await advance(5_000);
    expect(screen.getByTestId("payment-expired").textContent).toContain("Payment expired");
    expect(toastTexts()).toContain("Payment expired");
    expect(localStorage.getItem(KEY_PURCHASE_KEY)).toBeNull();
  });

  it("hands out a key paid at the last second, after the countdown", async () => {
    const { state, handlers } = keyPurchaseServer();
    server.use(...handlers);
    renderModal();
    await openPurchase();

    await advance(600_000);
    state.paid = true;
    await advance(5_000);
    expect(screen.getByTestId("generated-key").textContent).toBe(BOUGHT_KEY);
  });

  it("says 'Failed to initiate payment' and the server's reason, and goes back, when refused", async () => {
    server.use(...keyPurchaseServer().handlers);
    server.use(
      http.post("/api/auth/payment", () =>
        HttpResponse.json(
          { success: false, error: "The BNB price is unavailable" },
          { status: 503 },
        ),
      ),
    );
    renderModal();
    await openPurchase();

    expect(toastTexts().sort()).toEqual([
      "Failed to initiate payment",
      "The BNB price is unavailable",
    ]);
    expect(screen.getByRole("button", { name: "Get Free Access" })).toBeTruthy();
  });
});
