import { accountKeysRoute, accountRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import type { AccountService } from "./account.service.ts";

/** The caller's account and their keys for a backup (`Cache-Control: no-store`, see no-store.ts). */
export const accountRoutes =
  (accounts: AccountService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: accountRoute.method,
      url: accountRoute.path,
      config: { access: accountRoute.access },
      handler: async (request) => ({
        success: true as const,
        account: await accounts.account(requireUser(request).id),
      }),
    });

    app.route({
      method: accountKeysRoute.method,
      url: accountKeysRoute.path,
      config: {
        access: accountKeysRoute.access,
        // A backup is taken now and then; a flood of exports is someone else's doing.
        rateLimit: { max: 30, timeWindow: "1 hour" },
      },
      handler: async (request) => ({
        success: true as const,
        keys: await accounts.exportKeys(requireUser(request).id),
      }),
    });
  };
