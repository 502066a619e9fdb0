import { startPaymentRoute } from "@bundler/shared";
import { draftRequest } from "./draft-request.ts";

/** Opens (or reopens) the draft's launch-fee payment: address, amount, expiry. */
export const startPayment = (id: string) => draftRequest(startPaymentRoute, id);
