import {
  adminClaimsRoute,
  adminNewsRoute,
  adminStatsRoute,
  adminUserRoute,
  adminUsersRoute,
  auditLogRoute,
  completeClaimRoute,
  draftPaymentKeyRoute,
  editNewsRoute,
  newsVisibilityRoute,
  publishNewsRoute,
  rejectClaimRoute,
  updateUserActiveRoute,
  updateUserRoleRoute,
} from "@bundler/shared";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { parseRequest } from "../../lib/parse-request.ts";
import type { AdminService } from "./admin.service.ts";
import type { AdminActions } from "./admin-actions.ts";

/** A malformed id is an id nobody has: 404 with what was not found. */
const idOf = (request: FastifyRequest, what: string): string => {
  const parsed = adminUserRoute.params.safeParse(request.params);
  if (!parsed.success) throw new NotFoundError(`${what} not found`);
  return parsed.data.id;
};

/** `/api/admin/dashboard/*`: admins (some routes superadmins only); 401 without a key, 403 for a user's. */
export const adminRoutes =
  (admin: AdminService, actions: AdminActions): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: adminStatsRoute.method,
      url: adminStatsRoute.path,
      config: { access: adminStatsRoute.access },
      handler: async () => ({ success: true as const, stats: await admin.stats() }),
    });

    app.route({
      method: adminUsersRoute.method,
      url: adminUsersRoute.path,
      config: { access: adminUsersRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await admin.users(parseRequest(adminUsersRoute.query, request.query))),
      }),
    });

    app.route({
      method: adminUserRoute.method,
      url: adminUserRoute.path,
      config: { access: adminUserRoute.access },
      handler: async (request) => ({
        success: true as const,
        user: await admin.user(idOf(request, "User")),
      }),
    });

    app.route({
      method: updateUserRoleRoute.method,
      url: updateUserRoleRoute.path,
      schema: { body: updateUserRoleRoute.body },
      config: { access: updateUserRoleRoute.access },
      handler: async (request) => {
        const id = idOf(request, "User");
        const { role } = request.body;
        await actions.setRole(requireUser(request).id, id, role);
        return {
          success: true as const,
          user: { _id: id, role },
          message: `Role updated to ${role}`,
        };
      },
    });

    app.route({
      method: updateUserActiveRoute.method,
      url: updateUserActiveRoute.path,
      schema: { body: updateUserActiveRoute.body },
      config: { access: updateUserActiveRoute.access },
      handler: async (request) => {
        const id = idOf(request, "User");
        const { isActive } = request.body;
        await actions.setActive(requireUser(request), id, isActive);
        return {
          success: true as const,
          user: { _id: id, isActive },
          message: isActive ? "Key activated" : "Key deactivated",
        };
      },
    });

    app.route({
      method: draftPaymentKeyRoute.method,
      url: draftPaymentKeyRoute.path,
      config: { access: draftPaymentKeyRoute.access },
      handler: async (request) => {
        const id = idOf(request, "Draft");
        const { reason } = parseRequest(draftPaymentKeyRoute.query, request.query);
        return {
          success: true as const,
          ...(await actions.paymentKey(requireUser(request).id, id, reason)),
        };
      },
    });

    app.route({
      method: adminClaimsRoute.method,
      url: adminClaimsRoute.path,
      config: { access: adminClaimsRoute.access },
      handler: async (request) => {
        const { status, page } = parseRequest(adminClaimsRoute.query, request.query);
        return { success: true as const, ...(await admin.claims(status, page)) };
      },
    });

    app.route({
      method: completeClaimRoute.method,
      url: completeClaimRoute.path,
      config: { access: completeClaimRoute.access },
      handler: async (request) => {
        const claim = await actions.completeClaim(requireUser(request).id, idOf(request, "Claim"));
        return {
          success: true as const,
          claim,
          message:
            claim.status === "completed"
              ? "Claim completed"
              : "Payout sent: the claim completes once it is mined",
        };
      },
    });

    app.route({
      method: rejectClaimRoute.method,
      url: rejectClaimRoute.path,
      schema: { body: rejectClaimRoute.body },
      config: { access: rejectClaimRoute.access },
      handler: async (request) => {
        const reason = request.body?.reason || null;
        const claim = await actions.rejectClaim(
          requireUser(request).id,
          idOf(request, "Claim"),
          reason,
        );
        return {
          success: true as const,
          claim,
          message: "Claim rejected: its amount is claimable again",
        };
      },
    });

    app.route({
      method: auditLogRoute.method,
      url: auditLogRoute.path,
      config: { access: auditLogRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await admin.auditLog(parseRequest(auditLogRoute.query, request.query).page)),
      }),
    });

    app.route({
      method: adminNewsRoute.method,
      url: adminNewsRoute.path,
      config: { access: adminNewsRoute.access },
      handler: async () => ({ success: true as const, news: await admin.news() }),
    });

    app.route({
      method: publishNewsRoute.method,
      url: publishNewsRoute.path,
      schema: { body: publishNewsRoute.body },
      config: { access: publishNewsRoute.access },
      handler: async (request) => ({
        success: true as const,
        item: await actions.publishNews(requireUser(request).id, request.body),
        message: "News published",
      }),
    });

    app.route({
      method: editNewsRoute.method,
      url: editNewsRoute.path,
      schema: { body: editNewsRoute.body },
      config: { access: editNewsRoute.access },
      handler: async (request) => {
        const { id } = parseRequest(editNewsRoute.params, request.params, ["id"]);
        return {
          success: true as const,
          item: await actions.editNews(requireUser(request).id, id, request.body),
          message: "News updated",
        };
      },
    });

    app.route({
      method: newsVisibilityRoute.method,
      url: newsVisibilityRoute.path,
      schema: { body: newsVisibilityRoute.body },
      config: { access: newsVisibilityRoute.access },
      handler: async (request) => {
        const { id } = parseRequest(newsVisibilityRoute.params, request.params, ["id"]);
        const { active } = request.body;
        return {
          success: true as const,
          item: await actions.setNewsActive(requireUser(request).id, id, active),
          message: active ? "News shown in the banner" : "News hidden from the banner",
        };
      },
    });
  };
