import { getAddressRoute, getTransactionRoute, txStatusRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Address, Hex } from "viem";
import { requireUser } from "../../lib/access.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { TxService } from "./tx.service.ts";

export const txRoutes =
  (txs: TxService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: txStatusRoute.method,
      url: txStatusRoute.path,
      schema: { body: txStatusRoute.body },
      config: { access: txStatusRoute.access },
      handler: async (request) => ({
        success: true as const,
        statuses: await txs.statuses(request.body.txHashes as Hex[]),
      }),
    });

    // Registered before /api/tx/:hash for the reader; the router prefers the static segment anyway.
    app.route({
      method: getAddressRoute.method,
      url: getAddressRoute.path,
      schema: { params: getAddressRoute.params },
      config: { access: getAddressRoute.access },
      handler: async (request) => ({
        success: true as const,
        address: await txs.address(request.params.address as Address, requireUser(request).id),
      }),
    });

    app.route({
      method: getTransactionRoute.method,
      url: getTransactionRoute.path,
      config: { access: getTransactionRoute.access },
      handler: async (request) => {
        const params = getTransactionRoute.params.safeParse(request.params);
        if (!params.success) throw new NotFoundError("Transaction not found on this chain");
        const transaction = await txs.transaction(params.data.hash as Hex);
        return { success: true as const, transaction };
      },
    });
  };
