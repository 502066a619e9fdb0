import { FAUCET_PER_MINUTE, faucetRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Address } from "viem";
import type { FaucetService } from "./faucet.service.ts";

/** Registered only in the local profile: there is no faucet on a real network. */
export const faucetRoutes =
  (faucet: FaucetService, perMinute = FAUCET_PER_MINUTE): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: faucetRoute.method,
      url: faucetRoute.path,
      schema: { body: faucetRoute.body },
      config: {
        access: faucetRoute.access,
        rateLimit: { max: perMinute, timeWindow: "1 minute" },
      },
      handler: async (request) => {
        const hash = await faucet.send(request.body.address as Address, request.body.amount);
        return { success: true as const, hash, amount: request.body.amount };
      },
    });
  };
