import { HttpResponse, http } from "msw";
import { LOCAL_CONFIG, PAYMENT_ADDRESS } from "./fixtures.ts";

export const PAYMENT_ID = "5a4e1f2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b";
export const BOUGHT_KEY = "lbk_bought-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

interface StartBody {
  deviceId: string;
  referralCode?: string;
}

/**
 * `/api/auth/payment*` as the server answers a key purchase: the price of LOCAL_CONFIG at
 * $600 a BNB, the discount for code "CATS" (any other code is unknown), the key answered by
 * exactly one status call once `state.paid`. Counts and records every call.
 */
export function keyPurchaseServer() {
  const state = {
    paid: false,
    status: "open" as "open" | "paid" | "cancelled" | "expired",
    keyIssued: false,
    starts: [] as StartBody[],
    statusCalls: 0,
    cancels: 0,
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
  };
  const handlers = [
    http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    http.post("/api/auth/payment", async ({ request }) => {
      const body = (await request.json()) as StartBody;
      state.starts.push(body);
      if (body.referralCode && body.referralCode !== "CATS")
        return HttpResponse.json(
          { success: false, error: "Invalid referral code" },
          { status: 400 },
        );
      const discountUsd = body.referralCode ? LOCAL_CONFIG.referralDiscount : 0;
      const amountUsd = LOCAL_CONFIG.price - discountUsd;
      return HttpResponse.json({
        success: true,
        paymentId: PAYMENT_ID,
        paymentAddress: PAYMENT_ADDRESS,
        paymentAmount: body.referralCode ? "0.005666666666666666" : "0.006666666666666666",
        expiresAt: state.expiresAt,
        priceUsd: LOCAL_CONFIG.price,
        discountUsd,
        amountUsd,
        bnbUsdRate: 600,
        rateSource: "fixed",
        referralCode: body.referralCode ?? null,
      });
    }),
    http.get("/api/auth/payment/status", ({ request }) => {
      state.statusCalls += 1;
      const id = new URL(request.url).searchParams.get("paymentId");
      if (id !== PAYMENT_ID)
        return HttpResponse.json({ success: false, error: "Payment not found" }, { status: 404 });
      const handOut = state.paid && !state.keyIssued;
      if (handOut) state.keyIssued = true;
      return HttpResponse.json({
        success: true,
        status: state.paid ? "paid" : state.status,
        isPaid: state.paid,
        ...(handOut ? { key: BOUGHT_KEY } : {}),
        keyIssued: state.keyIssued,
        received: state.paid ? "0.006666666666666666" : "0",
        expiresAt: state.expiresAt,
      });
    }),
    http.post("/api/auth/payment/cancel", () => {
      state.cancels += 1;
      state.status = "cancelled";
      return HttpResponse.json({ success: true, message: "Payment cancelled" });
    }),
  ];
  return { state, handlers };
}
