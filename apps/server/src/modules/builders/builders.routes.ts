import { adminBuilderStatsRoute, builderStatsRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import type { BuilderSends } from "./builders.service.ts";

/**
 * `GET /api/admin/builders/stats`: every bundle's builders, for admins;
 * `GET /api/bundle/builders/stats`: the caller's own bundles'.
 */
export const buildersRoutes =
  (sends: BuilderSends): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: adminBuilderStatsRoute.method,
      url: adminBuilderStatsRoute.path,
      config: { access: adminBuilderStatsRoute.access },
      handler: async () => ({ success: true as const, windows: await sends.stats() }),
    });

    app.route({
      method: builderStatsRoute.method,
      url: builderStatsRoute.path,
      config: { access: builderStatsRoute.access },
      handler: async (request) => ({
        success: true as const,
        windows: await sends.stats(requireUser(request).id),
      }),
    });
  };
