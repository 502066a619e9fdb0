import { z } from "zod";
import { ROLES } from "../constants.ts";
import { defineRoute } from "./common.ts";

export const roleSchema = z.enum(ROLES);

export const generateFreeKeyRoute = defineRoute({
  method: "POST",
  path: "/api/auth/key/generate-free",
  access: "public",
  body: z.object({
    deviceId: z.string().trim().min(8, "deviceId is required").max(128),
    userAgent: z.string().max(512).default(""),
  }),
  response: z.object({ success: z.literal(true), key: z.string() }),
});
export type GenerateFreeKeyBody = z.input<typeof generateFreeKeyRoute.body>;

export const validateKeyRoute = defineRoute({
  method: "POST",
  path: "/api/auth/key/validate",
  access: "public",
  body: z.object({ key: z.string().trim().min(1, "No authentication key provided").max(256) }),
  response: z.object({ success: z.literal(true), role: roleSchema }),
});
export type ValidateKeyResponse = z.infer<typeof validateKeyRoute.response>;
