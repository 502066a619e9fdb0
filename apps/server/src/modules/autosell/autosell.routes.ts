import {
  cancelRuleRoute,
  createRuleRoute,
  dryRunRuleRoute,
  listRulesRoute,
  pauseRuleRoute,
  resumeRuleRoute,
  updateRuleRoute,
} from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../lib/access.ts";
import type { AutosellService, RuleMove } from "./autosell.service.ts";
import { ruleNotFound } from "./autosell.service.ts";

/** A malformed id is an id nobody owns: 404, as for another user's rule. */
const idOf = (params: unknown): string => {
  const parsed = pauseRuleRoute.params.safeParse(params);
  if (!parsed.success) throw ruleNotFound();
  return parsed.data.id;
};

/** A bundle's auto-sell rules (see AutosellService): create, list, pause, resume, cancel, edit, dry-run. */
export const autosellRoutes =
  (autosell: AutosellService): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: createRuleRoute.method,
      url: createRuleRoute.path,
      schema: { body: createRuleRoute.body },
      config: { access: createRuleRoute.access },
      handler: async (request) => ({
        success: true as const,
        rule: await autosell.create(requireUser(request).id, request.body),
      }),
    });

    app.route({
      method: listRulesRoute.method,
      url: listRulesRoute.path,
      schema: { querystring: listRulesRoute.query },
      config: { access: listRulesRoute.access },
      handler: async (request) => ({
        success: true as const,
        rules: await autosell.list(requireUser(request).id, request.query.address),
      }),
    });

    // A static path: Fastify prefers it to /api/bundle/rules/:id/… anyway.
    app.route({
      method: dryRunRuleRoute.method,
      url: dryRunRuleRoute.path,
      schema: { body: dryRunRuleRoute.body },
      config: { access: dryRunRuleRoute.access },
      handler: async (request) => ({
        success: true as const,
        ...(await autosell.dryRun(requireUser(request).id, request.body)),
      }),
    });

    const moves: Array<[RuleMove, typeof pauseRuleRoute]> = [
      ["pause", pauseRuleRoute],
      ["resume", resumeRuleRoute],
      ["cancel", cancelRuleRoute],
    ];
    for (const [move, route] of moves)
      app.route({
        method: route.method,
        url: route.path,
        config: { access: route.access },
        handler: async (request) => ({
          success: true as const,
          rule: await autosell.move(requireUser(request).id, idOf(request.params), move),
        }),
      });

    app.route({
      method: updateRuleRoute.method,
      url: updateRuleRoute.path,
      schema: { body: updateRuleRoute.body },
      config: { access: updateRuleRoute.access },
      handler: async (request) => ({
        success: true as const,
        rule: await autosell.update(requireUser(request).id, idOf(request.params), request.body),
      }),
    });
  };
