import { getTransactionRoute, txHashSchema, txStatusRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Hex } from "viem";
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
