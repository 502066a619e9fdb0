import type { z } from "zod";
import { BadRequestError, NotFoundError } from "./errors.ts";

/**
 * Parses a query or body with its contract schema: a 400 with the first rule broken, in the
 * schema's own words; a field in `notFoundFields` that does not parse (a malformed id) is an id
 * nobody owns, so a 404 with its message.
 */
export const parseRequest = <S extends z.ZodType>(
  schema: S,
  value: unknown,
  notFoundFields: readonly string[] = [],
): z.output<S> => {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const message = issue?.message ?? "Invalid request";
  if (issue && notFoundFields.includes(String(issue.path[0]))) throw new NotFoundError(message);
  throw new BadRequestError(message);
};
