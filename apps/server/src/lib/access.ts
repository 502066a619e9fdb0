import type { RouteDef } from "@bundler/shared";
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from "fastify";
import type { AuthService, AuthUser } from "../modules/auth/auth.service.ts";
import { ForbiddenError, UnauthorizedError } from "./errors.ts";

type Access = RouteDef["access"];

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call the route; API routes without it need a valid key. */
    access?: Access;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

const allowed: Record<Exclude<Access, "public">, ReadonlySet<string>> = {
  user: new Set(["user", "admin", "superadmin"]),
  admin: new Set(["admin", "superadmin"]),
  superadmin: new Set(["superadmin"]),
};

const checkAccess =
  (auth: AuthService, access: Exclude<Access, "public">): onRequestHookHandler =>
  async (request) => {
    const header = request.headers["x-auth-key"];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw new UnauthorizedError("No authentication key provided");
    const user = await auth.authenticate(key);
    if (!user) throw new UnauthorizedError("Invalid access key");
    if (!allowed[access].has(user.role)) throw new ForbiddenError("You do not have access to this");
    request.user = user;
  };

/**
 * Reads `x-auth-key` on every /api route: 401 without a valid key, 403 for the wrong role.
 * It runs as the route's last onRequest hook: after the rate limiter (so refused keys still
 * count), before the body is parsed or validated (so a caller without access never learns
 * anything from a 400 or 413).
 */
export const registerAccessControl = (app: FastifyInstance, auth: AuthService): void => {
  app.decorateRequest("user", null);
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/")) return;
    const access = route.config?.access ?? "user";
    if (access === "public") return;
    const existing = route.onRequest;
    const hooks = Array.isArray(existing) ? existing : existing ? [existing] : [];
    route.onRequest = [...hooks, checkAccess(auth, access)];
  });
};

/** The caller of a route that required a key. */
export const requireUser = (request: FastifyRequest): AuthUser => {
  if (!request.user) throw new UnauthorizedError("No authentication key provided");
  return request.user;
};
