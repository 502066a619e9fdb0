import { z } from "zod";
import { defineRoute } from "./common.ts";

export const newsItemSchema = z.object({
  id: z.string(),
  content: z.string(),
  label: z.string(),
  labelColor: z.string(),
  date: z.string(),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

export const getNewsRoute = defineRoute({
  method: "GET",
  path: "/api/news",
  access: "public",
  body: undefined,
  response: z.object({ success: z.literal(true), news: z.array(newsItemSchema) }),
});

export const chainNameSchema = z.enum(["local", "bsc-testnet", "bsc"]);
export type ChainName = z.infer<typeof chainNameSchema>;

/** What the web app needs to know about the deployment, served without auth. */
export const publicConfigSchema = z.object({
  chain: chainNameSchema,
  chainId: z.number(),
  /** Block-explorer base, e.g. https://bscscan.com; null on the local chain. */
  explorerUrl: z.string().nullable(),
  faucet: z.boolean(),
  links: z.object({ social: z.string(), group: z.string(), docs: z.string() }),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const getConfigRoute = defineRoute({
  method: "GET",
  path: "/api/config",
  access: "public",
  body: undefined,
  response: z.object({ success: z.literal(true), config: publicConfigSchema }),
});

export const healthRoute = defineRoute({
  method: "GET",
  path: "/api/health",
  access: "public",
  body: undefined,
  response: z.object({ ok: z.literal(true), block: z.number().nullable() }),
});
