import {
  bundleBalancesRoute,
  emptyWalletsRoute,
  listBundlesRoute,
  plural,
  sellDeveloperRoute,
  sellWalletsRoute,
} from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import type { WalletManager } from "./wallet-manager.ts";

export const bundlesRoutes =
  (manager: WalletManager): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: listBundlesRoute.method,
      url: listBundlesRoute.path,
      schema: { querystring: listBundlesRoute.query },
      config: { access: listBundlesRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await manager.bundles.list(requireUser(request).id, request.query.page)),
      }),
    });

    app.route({
      method: bundleBalancesRoute.method,
      url: bundleBalancesRoute.path,
      schema: { querystring: bundleBalancesRoute.query },
      config: { access: bundleBalancesRoute.access },
      handler: async (request) => {
        const read = await manager.bundles.balances(requireUser(request).id, request.query.address);
        return {
          success: true as const,
          message: `Balances of ${plural(read.balances.length, "wallet")}`,
          ...read,
        };
      },
    });

    app.route({
      method: sellWalletsRoute.method,
      url: sellWalletsRoute.path,
      schema: { body: sellWalletsRoute.body },
      config: { access: sellWalletsRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await manager.sellWallets(requireUser(request).id, request.body)),
      }),
    });

    app.route({
      method: sellDeveloperRoute.method,
      url: sellDeveloperRoute.path,
      schema: { body: sellDeveloperRoute.body },
      config: { access: sellDeveloperRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await manager.sellDeveloper(requireUser(request).id, request.body)),
      }),
    });

    app.route({
      method: emptyWalletsRoute.method,
      url: emptyWalletsRoute.path,
      schema: { body: emptyWalletsRoute.body },
      config: { access: emptyWalletsRoute.access },
      handler: async (request) => ({
        success: true as const,
        results: await manager.empty(requireUser(request).id, request.body),
      }),
    });
  };
