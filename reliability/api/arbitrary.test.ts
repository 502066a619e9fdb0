import { createDispersalRoute, faucetRoute, keyPaymentStatusRoute } from "@bundler/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { arbitraryOf, brokenOf } from "./arbitrary.ts";

const accepted = (schema: z.ZodType, values: unknown[]) =>
  values.filter((value) => schema.safeParse(value).success).length;

describe("arbitraryOf", () => {
  it("generates values a schema of uuids, regex strings and bounded numbers accepts", () => {
    const schema = z.object({
      id: z.string().uuid(),
      code: z.string().regex(/^[A-Z]{3,5}$/),
      count: z.number().int().min(1).max(9),
      flag: z.boolean().optional(),
      kind: z.enum(["a", "b"]),
    });
    const values = fc.sample(arbitraryOf(schema), { numRuns: 200, seed: 1 });
    expect(accepted(schema, values)).toBe(200);
  });

  it("generates requests the API's own contracts accept", () => {
    const query = keyPaymentStatusRoute.query;
    const values = fc.sample(arbitraryOf(query), { numRuns: 100, seed: 2 });
    expect(accepted(query, values)).toBe(100);
  });
});

describe("brokenOf", () => {
  it("breaks most values so the schema refuses them", () => {
    const body = faucetRoute.body;
    const values = fc.sample(brokenOf(body), { numRuns: 200, seed: 3 });
    expect(accepted(body, values)).toBeLessThan(40);
  });

  it("sends prototype keys as own JSON keys", () => {
    const values = fc.sample(brokenOf(createDispersalRoute.body), { numRuns: 500, seed: 4 });
    const json = values.map((value) => JSON.stringify(value) ?? "");
    expect(json.some((text) => text.includes('"__proto__"'))).toBe(true);
  });
});
