import { executeBundleRoute, planLaunchRoute } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../lib/access.ts";
import { openAccessKeyPayload } from "../../lib/envelope.ts";
import { BadRequestError } from "../../lib/errors.ts";
import { draftNotFound } from "../drafts/drafts.service.ts";
import type { LaunchService } from "./launch.service.ts";
import type { LaunchPlanService } from "./launch-plan.service.ts";

const payloadSchema = z.object({ draftId: z.string() }).passthrough();

export const launchRoutes =
  (launches: LaunchService, plans: LaunchPlanService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: planLaunchRoute.method,
      url: planLaunchRoute.path,
      schema: { body: planLaunchRoute.body },
      config: { access: planLaunchRoute.access },
      handler: async (request) => ({
        success: true as const,
        plan: await plans.plan(request.body),
      }),
    });

    app.route({
      method: executeBundleRoute.method,
      url: executeBundleRoute.path,
      schema: { body: executeBundleRoute.body },
      config: { access: executeBundleRoute.access },
      handler: async (request) => {
        const user = requireUser(request);
        const header = request.headers["x-auth-key"];
        const accessKey = (Array.isArray(header) ? header[0] : header) ?? "";
        let payload: z.infer<typeof payloadSchema>;
        try {
          payload = payloadSchema.parse(
            JSON.parse(openAccessKeyPayload(accessKey, request.body.data)),
          );
        } catch {
          throw new BadRequestError(
            "Could not read the bundle data: it must be AES-GCM encrypted with your access key and name a draftId",
          );
        }
        if (!z.string().uuid().safeParse(payload.draftId).success) throw draftNotFound();
        return {
          success: true as const,
          message: await launches.execute(user.id, payload.draftId),
        };
      },
    });
  };
