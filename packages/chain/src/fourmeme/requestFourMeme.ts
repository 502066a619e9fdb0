import { z } from "zod";
import {
  FourMemeAuthExpiredError,
  FourMemeHttpError,
  FourMemeResponseError,
  FourMemeTimeoutError,
} from "./errors.ts";
import { envelopeSchema } from "./schemas.ts";
import type { FourMemeClient } from "./types.ts";

export interface RequestFourMemeParameters<schema extends z.ZodType> {
  method: "GET" | "POST";
  /** Below the base URL, e.g. `/private/token/upload`. */
  path: string;
  query?: Record<string, string>;
  /** JSON-encoded, unless it is already FormData. */
  body?: unknown;
  /** Sent as the `meme-web-access` header. */
  accessToken?: string;
  /** Validates the envelope's `data`. */
  schema: schema;
}

/**
 * One call to four.meme: sends, waits at most `client.timeout`, unwraps
 * `{code, msg, data}` and turns every failure into a typed error.
 */
export const requestFourMeme = async <schema extends z.ZodType>(
  client: FourMemeClient,
  request: RequestFourMemeParameters<schema>,
): Promise<z.output<schema>> => {
  const { path } = request;
  const url = new URL(`${client.baseUrl}${path}`);
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.accessToken !== undefined) headers["meme-web-access"] = request.accessToken;
  const isJson = request.body !== undefined && !(request.body instanceof FormData);
  if (isJson) headers["content-type"] = "application/json";
  const body = isJson ? JSON.stringify(request.body) : (request.body as FormData | undefined);

  let status: number;
  let text: string;
  try {
    const response = await fetch(url, {
      method: request.method,
      headers,
      body,
      signal: AbortSignal.timeout(client.timeout),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (isTimeout(error)) {
      throw new FourMemeTimeoutError({ path, timeout: client.timeout, cause: error });
    }
    throw new FourMemeHttpError({ path, status: null, msg: reasonOf(error), cause: error });
  }

  const envelope = parseEnvelope(text);
  const ok = status >= 200 && status < 300;
  if (ok && !envelope) {
    throw new FourMemeResponseError({
      path,
      reason: `Not a {code, msg, data} answer: ${clip(text)}`,
    });
  }
  if (!ok || envelope?.code !== "0") {
    const msg = envelope?.msg || clip(text) || `HTTP ${status}`;
    if (request.accessToken !== undefined && isAuthExpiredAnswer(status, msg)) {
      throw new FourMemeAuthExpiredError({ path, msg });
    }
    throw new FourMemeHttpError({ path, status, code: envelope?.code ?? null, msg });
  }

  const data = request.schema.safeParse(envelope.data);
  if (!data.success) {
    throw new FourMemeResponseError({
      path,
      reason: z.prettifyError(data.error),
      cause: data.error,
    });
  }
  return data.data;
};

const parseEnvelope = (text: string) => {
  try {
    const parsed = envelopeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

// four.meme does not document its expiry answer; a 401, or a message that says so, counts.
const expiredPattern =
  /\b(access token|session|login)\b[^.]*\b(expired|invalid)\b|\btoken (has )?expired\b|\blog ?in again\b|\bnot log(ged)? ?in\b|\bunauthori[sz]ed\b/i;

const isAuthExpiredAnswer = (status: number, msg: string) =>
  status === 401 || expiredPattern.test(msg);

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

const reasonOf = (error: unknown) => {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
};

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}...` : text);
