import { z } from "zod";

/** The spec's failure shape: every failed API call answers `{success:false, error}`. */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  error: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** The kinds of objects a user owns, that an id or address in a request names. */
export type OwnedObject =
  | "draft"
  | "keyPayment"
  | "dispersal"
  | "bundle"
  | "bumper"
  | "transaction"
  | "claim"
  | "rule";

/**
 * A request field that names an object a user owns: another user's key on it must answer 404
 * and change nothing.
 */
export interface OwnedField {
  in: "params" | "query" | "body";
  /** The field's name, e.g. "id" or "dispersalId". */
  field: string;
  object: OwnedObject;
}

/** One API route: method, path under the origin, and its zod contract. */
export type RouteDef<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType = z.ZodType,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
> = {
  method: HttpMethod;
  path: string;
  body: Body;
  response: Response;
  /** The fields that name an object the caller must own. */
  owned?: readonly OwnedField[];
  /** Who may call it: anyone, any valid key, or an admin role. */
  access: "public" | "user" | "admin" | "superadmin";
  /**
   * A POST that only reads (its body is a question too long for a query string). Reads,
   * with every GET, wait their turn in the server's read queue under load.
   */
  reads?: true;
  /**
   * Sends money, or commits the server to send it (a sale, an empty, a withdrawal, a
   * dispersal, a payout, a launch, a rule that sells): when its rate limit cannot be counted
   * (the database away), it is refused (503) rather than let through as reads are.
   */
  movesMoney?: true;
  /**
   * Its answer carries a private key or an access key (wrapped ones too): sent with
   * `Cache-Control: no-store`, failures included, so no browser or proxy cache keeps it.
   */
  secret?: true;
} & (Query extends z.ZodType
  ? /** The query string's contract, for routes that read one. */ { query: Query }
  : { query?: undefined }) &
  (Params extends z.ZodType
    ? /** The path parameters' contract, for paths with `:name` segments. */ { params: Params }
    : { params?: undefined });

export const defineRoute = <
  B extends z.ZodType | undefined,
  R extends z.ZodType,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(
  route: RouteDef<B, R, Q, P>,
): RouteDef<B, R, Q, P> => route;
