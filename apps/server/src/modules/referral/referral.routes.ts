import {
  claimReferralRoute,
  createReferralCodeRoute,
  REFERRAL_MESSAGES,
  referralClaimsRoute,
  referralInfoRoute,
} from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import { presentClaim } from "./claim-presenter.ts";
import type { ReferralService } from "./referral.service.ts";

/** The caller's referral code, standing and claims (SPEC §7 `/auth/referral/*`). */
export const referralRoutes =
  (referrals: ReferralService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: referralInfoRoute.method,
      url: referralInfoRoute.path,
      config: { access: referralInfoRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await referrals.info(requireUser(request).id)),
      }),
    });

    app.route({
      method: createReferralCodeRoute.method,
      url: createReferralCodeRoute.path,
      schema: { body: createReferralCodeRoute.body },
      config: { access: createReferralCodeRoute.access },
      handler: async (request) => ({
        success: true as const,
        code: await referrals.createCode(requireUser(request).id, request.body.code),
        message: REFERRAL_MESSAGES.created,
      }),
    });

    app.route({
      method: claimReferralRoute.method,
      url: claimReferralRoute.path,
      schema: { body: claimReferralRoute.body },
      config: { access: claimReferralRoute.access },
      handler: async (request) => {
        const claim = await referrals.requestClaim(
          requireUser(request).id,
          request.body.receivingAddress,
        );
        return {
          success: true as const,
          claim: presentClaim(claim),
          message: REFERRAL_MESSAGES.claimed,
        };
      },
    });

    app.route({
      method: referralClaimsRoute.method,
      url: referralClaimsRoute.path,
      config: { access: referralClaimsRoute.access },
      handler: async (request) => ({
        success: true as const,
        claims: (await referrals.claims(requireUser(request).id)).map(presentClaim),
      }),
    });
  };
