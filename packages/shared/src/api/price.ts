import { z } from "zod";
import { defineRoute } from "./common.ts";

/** SPEC §7 `GET /bumper/price`: the BNB price in USD the bumper shows values in. */
export const bnbPriceRoute = defineRoute({
  method: "GET",
  path: "/api/bumper/price",
  access: "user",
  body: undefined,
  response: z.object({
    success: z.literal(true),
    price: z.number().positive(),
    /** Chainlink's BNB/USD feed on BSC, or the configured number elsewhere. */
    source: z.enum(["chainlink", "fixed"]),
  }),
});
