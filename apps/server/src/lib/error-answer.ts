import { ERROR_CATALOGUE } from "@bundler/shared";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { chainFailure } from "./chain-failure.ts";
import { AppError } from "./errors.ts";
import { drainOversizedBody } from "./oversized-body.ts";
import { FieldError } from "./parse-request.ts";

/** The API's failure body. */
export const fail = (error: string) => ({ success: false as const, error });

/**
 * The server's error handler: a request's own mistake in its words (400, the app's own
 * statuses, 413, 429), the chain node's failure as 503 (try again; whatever went out is
 * recorded), anything else as 500, logged.
 */
export const answerError = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
  if (error instanceof FieldError) return reply.status(400).send(error.body);
  if (error instanceof AppError)
    return reply.status(error.statusCode).send(fail(error.shortMessage));
  if (error.statusCode === 413) {
    drainOversizedBody(request, reply);
    return reply.status(413).send(fail(ERROR_CATALOGUE.payloadTooLarge.title));
  }
  if (error.statusCode === 429)
    return reply.status(429).send(fail(ERROR_CATALOGUE.rateLimit.title));
  if (error.statusCode && error.statusCode < 500)
    return reply.status(error.statusCode).send(fail(error.message));
  const chain = chainFailure(error);
  if (chain) {
    request.log.warn({ err: error }, "request failed on the chain");
    return reply.status(503).send(fail(`chain unavailable: ${chain}; try again`));
  }
  request.log.error({ err: error }, "request failed");
  return reply.status(500).send(fail("Something went wrong on the server"));
};
