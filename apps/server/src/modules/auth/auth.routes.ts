import { generateFreeKeyRoute, validateKeyRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { ReferralService } from "../referral/referral.service.ts";
import type { AuthService } from "./auth.service.ts";
import { headerKey } from "./header-key.ts";

export const authRoutes =
  (
    auth: AuthService,
    freeKeyLimitPerHour: number,
    referrals: ReferralService,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: generateFreeKeyRoute.method,
      url: generateFreeKeyRoute.path,
      schema: { body: generateFreeKeyRoute.body },
      config: {
        access: generateFreeKeyRoute.access,
        rateLimit: { max: freeKeyLimitPerHour, timeWindow: "1 hour" },
      },
      handler: async (request) => {
        // A code nobody owns, or the requester's own, is refused before anything is written.
        const { deviceId, referralCode } = request.body;
        const caller = referralCode ? await auth.authenticate(headerKey(request)) : null;
        const referrer = await referrals.referrerOf(referralCode, {
          deviceId,
          userId: caller?.id,
        });
        const key = await auth.generateFreeKey(
          request.body.deviceId,
          request.body.userAgent,
          request.ip,
          referrer?.userId ?? null,
        );
        return { success: true as const, key };
      },
    });

    app.route({
      method: validateKeyRoute.method,
      url: validateKeyRoute.path,
      schema: { body: validateKeyRoute.body },
      config: { access: validateKeyRoute.access },
      handler: async (request) => {
        const user = await auth.validate(request.body.key);
        return { success: true as const, role: user.role };
      },
    });
  };
