import { ROUTES, type RouteDef } from "@bundler/shared";
import type { FastifyInstance, onSendHookHandler } from "fastify";

/**
 * Routes whose answers carry a secret (`RouteDef.secret`): a draft with its wallets' private
 * keys (read, saved or updated), a draft's payment key (admins), a bought access key (the key
 * purchase's status), a new free key, the Account page's backup keys, generated wallets' keys
 * (wrapped for the browser) and imported wallets' keys. No cache (the browser's, a proxy's) may
 * keep them.
 */
export const SECRET_ROUTES: readonly RouteDef[] = ROUTES.filter((route) => route.secret);

const noStore: onSendHookHandler = async (_request, reply, payload) => {
  reply.header("cache-control", "no-store");
  return payload;
};

/**
 * Sends `Cache-Control: no-store` with every answer of `routes` (failures too). Register it
 * before the routes: it adds its hook as each one is added.
 */
export const registerNoStore = (
  app: FastifyInstance,
  routes: readonly RouteDef[] = SECRET_ROUTES,
): void => {
  const secret = new Set(routes.map((route) => `${route.method} ${route.path}`));
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (!methods.some((method) => secret.has(`${method} ${route.url}`))) return;
    const existing = route.onSend;
    const hooks = Array.isArray(existing) ? existing : existing ? [existing] : [];
    route.onSend = [...hooks, noStore];
  });
};
