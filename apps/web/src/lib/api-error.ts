import { type CatalogueKey, catalogueKeyFor, ERROR_CATALOGUE } from "@bundler/shared";

/**
 * Every failed API call becomes one of these: the spec's catalogue entry for the failure,
 * plus the server's own `error` text when it sent one.
 */
export class ApiError extends Error {
  override readonly name = "ApiError" as const;
  /** HTTP status, or null when no response arrived (connection refused, offline). */
  readonly status: number | null;
  readonly key: CatalogueKey;
  readonly title: string;
  readonly hint: string;
  /** The body's `error` field, when the server sent one. */
  readonly serverMessage: string | null;
  /**
   * Where a 400's problem is, when the server said (badRequestResponseSchema): the request's
   * path to the value ("amounts.2") and its row counted from 1, for a grid to mark.
   */
  readonly field: string | null;
  readonly row: number | null;

  constructor(
    status: number | null,
    serverMessage: string | null = null,
    where: { field?: string | undefined; row?: number | undefined } = {},
  ) {
    const key = catalogueKeyFor(status);
    const { title, hint } = ERROR_CATALOGUE[key];
    super(title);
    this.status = status;
    this.key = key;
    this.title = title;
    this.hint = hint;
    this.serverMessage = serverMessage;
    this.field = where.field ?? null;
    this.row = where.row ?? null;
  }
}

/** Reads `{error}` from a failure body without trusting its shape. */
export function serverMessageOf(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("error" in body)) return null;
  const { error } = body;
  return typeof error === "string" && error.trim() !== "" ? error : null;
}

/** Reads a 400's `field` and `row` from a failure body without trusting its shape. */
export function problemPlaceOf(body: unknown): { field?: string; row?: number } {
  if (typeof body !== "object" || body === null) return {};
  const { field, row } = body as { field?: unknown; row?: unknown };
  return {
    ...(typeof field === "string" && field ? { field } : {}),
    ...(typeof row === "number" && Number.isInteger(row) && row >= 1 ? { row } : {}),
  };
}

/**
 * What a failed call shows: the server's own message, else the catalogue's title and hint
 * (no response, unexpected answer), else the fallback.
 */
export function failureText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  return error.serverMessage ?? `${error.title}\n${error.hint}`;
}
