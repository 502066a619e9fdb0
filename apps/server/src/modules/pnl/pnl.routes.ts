import { bundlePnlCsvRoute, bundlePnlHistoryRoute, bundlePnlRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import type { PnlService } from "./pnl.service.ts";

/** A bundle's P&L, its chart and its ledger as CSV (see PnlService). */
export const pnlRoutes =
  (pnl: PnlService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: bundlePnlRoute.method,
      url: bundlePnlRoute.path,
      schema: { querystring: bundlePnlRoute.query },
      config: { access: bundlePnlRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await pnl.pnl(requireUser(request).id, request.query.address)),
      }),
    });

    app.route({
      method: bundlePnlHistoryRoute.method,
      url: bundlePnlHistoryRoute.path,
      schema: { querystring: bundlePnlHistoryRoute.query },
      config: { access: bundlePnlHistoryRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await pnl.history(requireUser(request).id, request.query.address)),
      }),
    });

    app.route({
      method: bundlePnlCsvRoute.method,
      url: bundlePnlCsvRoute.path,
      schema: { querystring: bundlePnlCsvRoute.query },
      config: { access: bundlePnlCsvRoute.access },
      handler: async (request, reply) => {
        const { csv, name } = await pnl.csv(requireUser(request).id, request.query.address);
        return reply
          .type("text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="${name}"`)
          .send(csv);
      },
    });
  };
