import { ApiError } from "../../../lib/api-client.ts";

/** The server does not know this dispersal (any more): a stored id for it is forgotten. */
export const isNotFound = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 404;
