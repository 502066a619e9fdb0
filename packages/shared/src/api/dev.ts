import { z } from "zod";
import { isValidAddress } from "../constants.ts";
import { defineRoute } from "./common.ts";

/** The largest single faucet payment, in BNB. */
export const FAUCET_MAX_BNB = 100;

/** Faucet payments one client address may ask for per minute. */
export const FAUCET_PER_MINUTE = 30;

/**
 * Test BNB, on the local chain only (the route does not exist elsewhere). Public: a visitor
 * buying an access key has no key yet, and pays it from here.
 */
export const faucetRoute = defineRoute({
  method: "POST",
  path: "/api/dev/faucet",
  access: "public",
  movesMoney: true,
  body: z.object({
    address: z.string().refine(isValidAddress, "Invalid address format"),
    amount: z
      .string()
      .regex(/^\d+(\.\d{1,18})?$/, "amount must be a BNB amount like 1 or 0.25")
      .refine(
        (value) => Number(value) > 0 && Number(value) <= FAUCET_MAX_BNB,
        `amount must be above 0 and at most ${FAUCET_MAX_BNB} BNB`,
      )
      .default("1"),
  }),
  response: z.object({ success: z.literal(true), hash: z.string(), amount: z.string() }),
});
export type FaucetBody = z.input<typeof faucetRoute.body>;
