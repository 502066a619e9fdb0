import {
  cancelPaymentRoute,
  createDraftRoute,
  deleteDraftRoute,
  draftLogoRoute,
  draftSummaryRoute,
  executeDraftRoute,
  getDraftRoute,
  listDraftsRoute,
  paymentStatusRoute,
  startPaymentRoute,
  updateDraftRoute,
} from "@bundler/shared";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import { BadRequestError, NotFoundError } from "../../lib/errors.ts";
import type { LaunchService } from "../launch/launch.service.ts";
import type { LaunchPlanService } from "../launch/launch-plan.service.ts";
import { type DraftsService, draftNotFound } from "./drafts.service.ts";
import type { PaymentService } from "./payment.service.ts";

/** A malformed id is just an id nobody owns: 404, like another user's. */
const idOf = (request: FastifyRequest): string => {
  const parsed = getDraftRoute.params.safeParse(request.params);
  if (!parsed.success) throw draftNotFound();
  return parsed.data.id;
};

export const draftsRoutes =
  (
    drafts: DraftsService,
    payments: PaymentService,
    launches: LaunchService,
    plans: LaunchPlanService,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: createDraftRoute.method,
      url: createDraftRoute.path,
      schema: { body: createDraftRoute.body },
      config: { access: createDraftRoute.access },
      handler: async (request) => {
        const draft = await drafts.create(requireUser(request).id, request.body);
        return { success: true as const, draft, draftId: draft._id };
      },
    });

    app.route({
      method: listDraftsRoute.method,
      url: listDraftsRoute.path,
      config: { access: listDraftsRoute.access },
      handler: async (request) => {
        const query = listDraftsRoute.query.safeParse(request.query);
        if (!query.success) throw new BadRequestError(query.error.issues[0]?.message ?? "bad page");
        return {
          success: true as const,
          ...(await drafts.list(requireUser(request).id, query.data.page)),
        };
      },
    });

    app.route({
      method: draftLogoRoute.method,
      url: draftLogoRoute.path,
      config: { access: draftLogoRoute.access },
      handler: async (request, reply) => {
        const { hash } = request.params as { hash: string };
        const logo = await drafts.logo(hash);
        if (!logo) throw new NotFoundError("Logo not found");
        // Content-addressed: the bytes behind a hash never change.
        const etag = `"${hash}"`;
        reply
          .header("cache-control", "public, max-age=31536000, immutable")
          .header("etag", etag)
          // The web app may live on another allowed origin (VITE_API_BASE).
          .header("cross-origin-resource-policy", "cross-origin");
        const match = request.headers["if-none-match"];
        if (match?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))
          return reply.status(304).send();
        return reply.type(logo.contentType).send(logo.bytes);
      },
    });

    app.route({
      method: getDraftRoute.method,
      url: getDraftRoute.path,
      config: { access: getDraftRoute.access },
      handler: async (request) => ({
        success: true as const,
        draft: await drafts.get(requireUser(request).id, idOf(request)),
      }),
    });

    app.route({
      method: updateDraftRoute.method,
      url: updateDraftRoute.path,
      schema: { body: updateDraftRoute.body },
      config: { access: updateDraftRoute.access },
      handler: async (request) => {
        const draft = await drafts.update(requireUser(request).id, idOf(request), request.body);
        return { success: true as const, draft, draftId: draft._id };
      },
    });

    app.route({
      method: deleteDraftRoute.method,
      url: deleteDraftRoute.path,
      config: { access: deleteDraftRoute.access },
      handler: async (request) => {
        await drafts.remove(requireUser(request).id, idOf(request));
        return { success: true as const };
      },
    });

    app.route({
      method: startPaymentRoute.method,
      url: startPaymentRoute.path,
      config: { access: startPaymentRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await payments.start(requireUser(request).id, idOf(request))),
      }),
    });

    app.route({
      method: paymentStatusRoute.method,
      url: paymentStatusRoute.path,
      config: { access: paymentStatusRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await payments.status(requireUser(request).id, idOf(request))),
      }),
    });

    app.route({
      method: cancelPaymentRoute.method,
      url: cancelPaymentRoute.path,
      config: { access: cancelPaymentRoute.access },
      handler: async (request) => ({
        success: true as const,
        message: await payments.cancel(requireUser(request).id, idOf(request)),
      }),
    });

    app.route({
      method: draftSummaryRoute.method,
      url: draftSummaryRoute.path,
      config: { access: draftSummaryRoute.access },
      handler: async (request) => ({
        success: true as const,
        plan: await plans.summary(requireUser(request).id, idOf(request)),
      }),
    });

    app.route({
      method: executeDraftRoute.method,
      url: executeDraftRoute.path,
      config: { access: executeDraftRoute.access },
      handler: async (request) => ({
        success: true as const,
        message: await launches.execute(requireUser(request).id, idOf(request)),
      }),
    });
  };
