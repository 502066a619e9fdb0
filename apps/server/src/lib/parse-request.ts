import { type FieldLabels, parseRequestPart, type RequestProblem } from "@bundler/shared";
import type { FastifySchemaCompiler } from "fastify";
import { ZodType, type z } from "zod";
import { BadRequestError, NotFoundError } from "./errors.ts";

/**
 * A 400 about one field: its sentence names the field by the label its form shows, and the
 * answer carries where it is (`field`, and `row` counted from 1) so a grid can mark the row.
 * See `badRequestResponseSchema` in packages/shared for the body.
 */
export class FieldError extends BadRequestError {
  readonly field: string | undefined;
  readonly row: number | undefined;
  constructor(problem: RequestProblem) {
    super(problem.error);
    this.field = problem.field;
    this.row = problem.row;
  }

  /** The 400's body: `{success:false, error, field?, row?}`. */
  get body() {
    return {
      success: false as const,
      error: this.shortMessage,
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.row !== undefined ? { row: this.row } : {}),
    };
  }
}

/**
 * Parses a query or body with its contract schema: a 400 with the first rule broken, as a
 * sentence with the field's label (the labels kept beside the contract, see `labelled`) and its
 * row; a field in `notFoundFields` that does not parse (a malformed id) is an id nobody owns,
 * so a 404 with its message.
 */
export const parseRequest = <S extends z.ZodType>(
  schema: S,
  value: unknown,
  notFoundFields: readonly string[] = [],
  labels?: FieldLabels,
): z.output<S> => {
  const parsed = parseRequestPart(schema, value ?? {}, labels);
  if (parsed.success) return parsed.data;
  const { problem } = parsed;
  const top = problem.field?.split(".")[0];
  if (top !== undefined && notFoundFields.includes(top)) throw new NotFoundError(problem.error);
  throw new FieldError(problem);
};

/**
 * Fastify's validator for the routes' zod schemas (instead of fastify-type-provider-zod's, which
 * answered "walletCount: Too big: expected number to be <=100"): a request that does not parse
 * is a FieldError, which the error handler answers with its body.
 */
export const requestValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema }) => {
  // A schema Fastify wrapped as `{properties}` (JSON shorthand), as fastify-type-provider-zod reads it.
  const wrapped = (schema as { properties?: unknown }).properties;
  const zod = wrapped instanceof ZodType ? wrapped : schema;
  return (data) => {
    const parsed = parseRequestPart(zod, data);
    return parsed.success ? { value: parsed.data } : { error: new FieldError(parsed.problem) };
  };
};
