import { getBnbPrice } from "@bundler/chain";
import { bnbPriceRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { ServiceUnavailableError } from "../../lib/errors.ts";

/**
 * The BNB price: Chainlink's feed where the profile has one (a stale or negative round is
 * refused with a 503, never shown), else `fixedUsd` (BNB_USD_PRICE) or the profile's number.
 */
export const priceRoutes =
  (chain: ChainContext | undefined, fixedUsd: number | undefined): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: bnbPriceRoute.method,
      url: bnbPriceRoute.path,
      config: { access: bnbPriceRoute.access },
      handler: async () => {
        const { profile, client } = requireChain(chain);
        if (profile.bnbPrice.kind === "fixed")
          return {
            success: true as const,
            price: fixedUsd ?? profile.bnbPrice.usd,
            source: "fixed" as const,
          };
        try {
          const price = await getBnbPrice(client, { profile });
          return { success: true as const, price, source: "chainlink" as const };
        } catch (error) {
          const { shortMessage, message } = error as Error & { shortMessage?: string };
          throw new ServiceUnavailableError(`BNB price unavailable: ${shortMessage ?? message}`);
        }
      },
    });
  };
