import { bnbPriceRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { PriceService } from "./price.service.ts";

/** The BNB price the bumper shows values in (see PriceService). */
export const priceRoutes =
  (prices: PriceService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: bnbPriceRoute.method,
      url: bnbPriceRoute.path,
      config: { access: bnbPriceRoute.access },
      handler: async () => ({ success: true as const, ...(await prices.bnbUsd()) }),
    });
  };
