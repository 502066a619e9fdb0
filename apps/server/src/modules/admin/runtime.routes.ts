import { adminRuntimeRoute, resetAdminRuntimeRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { RuntimeFigures } from "../../lib/runtime-figures.ts";

/** `/api/admin/dashboard/runtime`: this process's event-loop delay and time per route. */
export const runtimeRoutes =
  (runtime: RuntimeFigures): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: adminRuntimeRoute.method,
      url: adminRuntimeRoute.path,
      config: { access: adminRuntimeRoute.access },
      handler: async () => ({ success: true as const, ...runtime.figures() }),
    });

    app.route({
      method: resetAdminRuntimeRoute.method,
      url: resetAdminRuntimeRoute.path,
      config: { access: resetAdminRuntimeRoute.access },
      handler: async () => ({ success: true as const, ...runtime.reset() }),
    });
  };
