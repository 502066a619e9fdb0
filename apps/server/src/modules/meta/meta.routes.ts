import { getConfigRoute, getNewsRoute, healthRoute, type PublicConfig } from "@bundler/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { NewsRepository } from "./news.repository.ts";

export const metaRoutes =
  (deps: {
    news: NewsRepository;
    publicConfig: PublicConfig;
    currentBlock: () => number | null;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      healthRoute.path,
      { config: { access: healthRoute.access, rateLimit: false } },
      async () => ({ ok: true as const, block: deps.currentBlock() }),
    );
    app.get(getConfigRoute.path, { config: { access: getConfigRoute.access } }, async () => ({
      success: true as const,
      config: deps.publicConfig,
    }));
    app.get(getNewsRoute.path, { config: { access: getNewsRoute.access } }, async () => ({
      success: true as const,
      news: await deps.news.listActive(),
    }));
  };
