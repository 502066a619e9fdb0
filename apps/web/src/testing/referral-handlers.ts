import type { Claim, ReferralInfo } from "@bundler/shared";
import { HttpResponse, http } from "msw";
import { LOCAL_CONFIG } from "./fixtures.ts";

export const RECEIVER = "0x2222222222222222222222222222222222222222";

/** A user with no code, no uses and nothing earned. */
export const referralInfoFixture = (overrides: Partial<ReferralInfo> = {}): ReferralInfo => ({
  code: null,
  uses: 0,
  earned: "0",
  claimable: "0",
  pending: "0",
  claimed: "0",
  hasPendingClaim: false,
  ...overrides,
});

export const claimFixture = (overrides: Partial<Claim> = {}): Claim => ({
  id: "9b1c2d3e-4f50-4a6b-8c7d-000000000001",
  amount: "0.000666666666666666",
  status: "pending",
  requestedAt: new Date(2026, 10, 24, 15, 4).toISOString(),
  receivingAddress: RECEIVER,
  txHash: null,
  reason: null,
  decidedAt: null,
  ...overrides,
});

/**
 * `/api/auth/referral/*` over `state` as it is when asked: creating a code (codes in `taken`
 * are refused, case-insensitively, as the server does) and claiming (the claimable amount
 * moves to a pending claim). Records every request body; counts the reads.
 */
export function referralServer(initial: { info?: ReferralInfo; claims?: Claim[] } = {}) {
  const state = {
    info: initial.info ?? referralInfoFixture(),
    claims: initial.claims ?? [],
    taken: ["TAKEN"],
    created: [] as unknown[],
    claimed: [] as unknown[],
    reads: { info: 0, claims: 0 },
  };
  const handlers = [
    http.get("/api/config", () => HttpResponse.json({ success: true, config: LOCAL_CONFIG })),
    http.get("/api/auth/referral/info", () => {
      state.reads.info += 1;
      return HttpResponse.json({ success: true, ...state.info });
    }),
    http.get("/api/auth/referral/claims", () => {
      state.reads.claims += 1;
      return HttpResponse.json({ success: true, claims: state.claims });
    }),
    http.post("/api/auth/referral/create", async ({ request }) => {
      const body = (await request.json()) as { code: string };
      state.created.push(body);
      if (state.taken.some((code) => code.toLowerCase() === body.code.toLowerCase()))
        return HttpResponse.json({ success: false, error: "this code is taken" }, { status: 409 });
      state.info = { ...state.info, code: body.code };
      return HttpResponse.json({
        success: true,
        code: body.code,
        message: "Referral code created successfully!",
      });
    }),
    http.post("/api/auth/referral/claim", async ({ request }) => {
      const body = (await request.json()) as { receivingAddress: string };
      state.claimed.push(body);
      const claim = claimFixture({
        amount: state.info.claimable,
        receivingAddress: body.receivingAddress,
      });
      state.claims = [claim, ...state.claims];
      state.info = {
        ...state.info,
        pending: state.info.claimable,
        claimable: "0",
        hasPendingClaim: true,
      };
      return HttpResponse.json({
        success: true,
        claim,
        message: "Claim request submitted successfully!",
      });
    }),
  ];
  return { state, handlers };
}
