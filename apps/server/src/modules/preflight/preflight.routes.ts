import { adminPreflightRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { PreflightService } from "./preflight.service.ts";

/** `GET /api/admin/dashboard/preflight`: superadmins run every check of the setup, now. */
export const preflightRoutes =
  (preflight: PreflightService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: adminPreflightRoute.method,
      url: adminPreflightRoute.path,
      config: { access: adminPreflightRoute.access },
      handler: async () => preflight.run(),
    });
  };
