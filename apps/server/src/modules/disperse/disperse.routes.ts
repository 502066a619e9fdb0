import {
  cancelDispersalRoute,
  createDispersalRoute,
  dispersalLogRoute,
  dispersalStatusRoute,
  listDispersalsRoute,
  plural,
} from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { DisperseService } from "./disperse.service.ts";

export const disperseRoutes =
  (dispersals: DisperseService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: createDispersalRoute.method,
      url: createDispersalRoute.path,
      schema: { body: createDispersalRoute.body },
      config: { access: createDispersalRoute.access },
      handler: async (request) => {
        const dispersal = await dispersals.create(requireUser(request).id, request.body);
        return {
          success: true as const,
          message: `Send ${dispersal.amount} BNB to ${dispersal.receiver} within ${plural(dispersal.expiresIn, "minute")}`,
          ...dispersal,
        };
      },
    });

    app.route({
      method: dispersalStatusRoute.method,
      url: dispersalStatusRoute.path,
      config: { access: dispersalStatusRoute.access },
      handler: async (request) => {
        // A missing or malformed id is an id nobody owns.
        const query = dispersalStatusRoute.query.safeParse(request.query);
        if (!query.success) throw new NotFoundError("Dispersal not found");
        const dispersal = await dispersals.status(requireUser(request).id, query.data.dispersalId);
        return { success: true as const, message: `Dispersal ${dispersal.status}`, ...dispersal };
      },
    });

    app.route({
      method: cancelDispersalRoute.method,
      url: cancelDispersalRoute.path,
      schema: { body: cancelDispersalRoute.body },
      config: { access: cancelDispersalRoute.access },
      handler: async (request) => {
        await dispersals.cancel(requireUser(request).id, request.body.dispersalId);
        return { success: true as const, message: "Dispersal cancelled" };
      },
    });

    app.route({
      method: listDispersalsRoute.method,
      url: listDispersalsRoute.path,
      schema: { querystring: listDispersalsRoute.query },
      config: { access: listDispersalsRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await dispersals.list(requireUser(request).id, request.query.page)),
      }),
    });

    app.route({
      method: dispersalLogRoute.method,
      url: dispersalLogRoute.path,
      config: { access: dispersalLogRoute.access },
      handler: async (request) => {
        // A missing or malformed id is an id nobody owns, as for the status.
        const query = dispersalLogRoute.query.safeParse(request.query);
        if (!query.success) throw new NotFoundError("Dispersal not found");
        const lines = await dispersals.log(requireUser(request).id, query.data.dispersalId);
        return { success: true as const, lines };
      },
    });
  };
