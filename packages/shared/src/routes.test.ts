import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ROUTES } from "./routes.ts";

/** Answer fields that hold a private key or an access key (plain or wrapped). */
const KEY_FIELDS = new Set(["privateKey", "privateKeys", "key", "accessKey", "encryptedKeys"]);
/** Routes with such a field that is no secret, and why. */
const NOT_SECRET: Record<string, string> = {
  "GET /api/admin/dashboard/users": "an admin's list shows a key's first 6 characters only",
  "GET /api/admin/dashboard/users/:id": "an admin's view shows a key's first 6 characters only",
};

/** The dotted paths of every key field in a JSON schema. */
const keyFields = (schema: unknown, path: string[] = []): string[] => {
  if (!schema || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  for (const [name, child] of Object.entries((node.properties ?? {}) as object)) {
    if (KEY_FIELDS.has(name)) found.push([...path, name].join("."));
    found.push(...keyFields(child, [...path, name]));
  }
  for (const part of ["items", "anyOf", "oneOf", "allOf", "additionalProperties"])
    for (const child of [node[part]].flat()) found.push(...keyFields(child, path));
  return found;
};

describe("the route table", () => {
  it("marks secret every route whose answer carries a private key or an access key", () => {
    const unmarked = ROUTES.filter((route) => {
      const name = `${route.method} ${route.path}`;
      if (route.secret || name in NOT_SECRET) return false;
      const schema = z.toJSONSchema(route.response, { io: "output", unrepresentable: "any" });
      return keyFields(schema).length > 0;
    }).map((route) => `${route.method} ${route.path}`);
    expect(unmarked).toEqual([]);
  });
});
