import { screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { draftFixture, LOCAL_CONFIG, PAYMENT_ADDRESS } from "../../../testing/fixtures.ts";
import { server } from "../../../testing/msw-server.ts";
import { advance, renderInApp, settle, toastTexts } from "../../../testing/render.tsx";
import { PaymentDialog } from "./payment-dialog.tsx";

const draft = draftFixture();
const STATUS_PATH = `/api/draft/${draft._id}/payment/status`;

/** The server's side of one payment: its answers and how often it was asked. */
function paymentServer() {
  const state = { paid: false, statusCalls: 0 };
  server.use(
    http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    http.post(`/api/draft/${draft._id}/payment`, () =>
      HttpResponse.json({
        success: true,
        paymentAddress: PAYMENT_ADDRESS,
        paymentAmount: "0.5",
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      }),
    ),
    http.get(STATUS_PATH, () => {
      state.statusCalls += 1;
      return HttpResponse.json({
        success: true,
        isPaid: state.paid,
        status: state.paid ? "paid" : "pending_payment",
        received: state.paid ? "0.5" : "0",
        expiresAt: null,
      });
    }),
  );
  return state;
}

const renderDialog = () => {
  const onPaid = vi.fn();
  const onClose = vi.fn();
  renderInApp(<PaymentDialog draft={draft} onPaid={onPaid} onClose={onClose} />);
  return { onPaid, onClose };
};

const countdown = () => screen.getByTestId("payment-countdown");

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
});

describe("PaymentDialog", () => {
  it("shows the payment address and amount once the server has made them", async () => {
    paymentServer();
    renderDialog();
    await settle();

    expect(screen.getByTestId("payment-address").textContent).toBe(PAYMENT_ADDRESS);
    expect(screen.getByTestId("payment-amount").textContent).toBe("0.5");
  });

  it("asks for the fallback 0.00001 BNB when the server names no amount (SPEC §9)", async () => {
    paymentServer();
    server.use(
      http.post(`/api/draft/${draft._id}/payment`, () =>
        HttpResponse.json({
          success: true,
          paymentAddress: PAYMENT_ADDRESS,
          expiresAt: new Date(Date.now() + 600_000).toISOString(),
        }),
      ),
    );
    renderDialog();
    await settle();

    expect(screen.getByTestId("payment-amount").textContent).toBe("0.00001");
    expect(screen.getByText("0.00001 BNB")).toBeTruthy();
  });

  it("resumes an open payment without an amount at the fallback too", async () => {
    paymentServer();
    const pending = draftFixture({
      status: "pending_payment",
      paymentAddress: PAYMENT_ADDRESS,
      paymentAmount: null,
      paymentExpiresAt: new Date(Date.now() + 300_000).toISOString(),
    });
    renderInApp(<PaymentDialog draft={pending} onPaid={vi.fn()} onClose={vi.fn()} />);
    await settle();

    expect(screen.getByTestId("payment-amount").textContent).toBe("0.00001");
  });

  it("asks for the payment status every 5 seconds", async () => {
    const payment = paymentServer();
    renderDialog();
    await settle();
    expect(payment.statusCalls).toBe(1);

    await advance(4_900);
    expect(payment.statusCalls).toBe(1);
    await advance(100);
    expect(payment.statusCalls).toBe(2);
    await advance(5_000);
    expect(payment.statusCalls).toBe(3);
  });

  it("confirms a payment and hands back 2 seconds later", async () => {
    const payment = paymentServer();
    const { onPaid } = renderDialog();
    await settle();

    payment.paid = true;
    await advance(5_000);
    expect(screen.getByTestId("payment-confirmed").textContent).toBe(
      "Payment confirmed! You can now launch your token from the drafts page.",
    );
    expect(toastTexts()).toContain(
      "Payment confirmed! You can now launch your token from the drafts page.",
    );

    await advance(1_900);
    expect(onPaid).not.toHaveBeenCalled();
    await advance(100);
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it("stops asking for the status once the payment is confirmed", async () => {
    const payment = paymentServer();
    renderDialog();
    await settle();
    payment.paid = true;
    await advance(5_000);
    const calls = payment.statusCalls;

    await advance(30_000);
    expect(payment.statusCalls).toBe(calls);
  });

  it("counts down from 10 minutes", async () => {
    paymentServer();
    renderDialog();
    await settle();
    expect(countdown().textContent).toBe("10:00");

    await advance(61_000);
    expect(countdown().textContent).toBe("8:59");
    expect(countdown().className).not.toContain("text-bad");
  });

  it("turns the countdown red under 60 seconds", async () => {
    paymentServer();
    renderDialog();
    await settle();

    await advance(540_000);
    expect(countdown().textContent).toBe("1:00");
    expect(countdown().className).not.toContain("text-bad");
    await advance(1_000);
    expect(countdown().textContent).toBe("0:59");
    expect(countdown().className).toContain("text-bad");
  });

  it("shows the expired state and the toast 'Payment expired' when the countdown reaches 0", async () => {
    paymentServer();
    renderDialog();
    await settle();

    await advance(600_000);
    expect(screen.getByTestId("payment-expired").textContent).toContain("Payment expired");
    expect(screen.queryByTestId("payment-countdown")).toBeNull();
    expect(toastTexts()).toContain("Payment expired");
  });

  it("says exactly 'Failed to initiate payment' and closes when the server refuses", async () => {
    server.use(
      http.post(`/api/draft/${draft._id}/payment`, () =>
        HttpResponse.json({ success: false, error: "Draft is already paid" }, { status: 409 }),
      ),
    );
    const { onClose } = renderDialog();
    await settle();

    expect(onClose).toHaveBeenCalledTimes(1);
    const texts = toastTexts();
    expect(texts).toContain("Failed to initiate payment");
    // The server's reason is its own toast, never glued to the spec's text.
    expect(texts).toContain("Draft is already paid");
    expect(texts).toHaveLength(2);
  });
});
