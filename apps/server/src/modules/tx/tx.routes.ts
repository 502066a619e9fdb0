import {
  addressParamsSchema,
  getAddressRoute,
  getTransactionRoute,
  txHashSchema,
  txStatusRoute,
} from "@bundler/shared";
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
      schema: { params: addressParamsSchema },
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
        const hash = txHashSchema.safeParse((request.params as { hash?: string }).hash);
        if (!hash.success) throw new NotFoundError("Transaction not found on this chain");
        return { success: true as const, transaction: await txs.transaction(hash.data as Hex) };
      },
    });
  };
