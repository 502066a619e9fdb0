import { z } from "zod";

/** The spec's failure shape: every failed API call answers `{success:false, error}`. */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  error: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** One API route: method, path under the origin, and its zod contract. */
export interface RouteDef<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  path: string;
  body: Body;
  response: Response;
  /** Who may call it: anyone, any valid key, or an admin role. */
  access: "public" | "user" | "admin" | "superadmin";
}

export const defineRoute = <B extends z.ZodType | undefined, R extends z.ZodType>(
  route: RouteDef<B, R>,
): RouteDef<B, R> => route;
