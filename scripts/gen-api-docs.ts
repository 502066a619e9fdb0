/**
 * Writes docs/api.md from the route table (`ROUTES` in packages/shared/src/routes.ts): every
 * route's method, path, access and owned fields, its params, query and body fields from their
 * zod schemas, the top-level fields it answers, and the first sentence of the doc comment on
 * the route's definition when it has one. Nothing in docs/api.md is kept by hand.
 *
 *   node --import tsx scripts/gen-api-docs.ts           writes docs/api.md (npm run docs:api)
 *   node --import tsx scripts/gen-api-docs.ts --check   exits 1 when docs/api.md differs
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROUTES, type RouteDef } from "@bundler/shared";
import ts from "typescript";
import { z } from "zod";

const root = path.resolve(import.meta.dirname, "..");
const apiDir = path.join(root, "packages/shared/src/api");
const target = path.join(root, "docs/api.md");
const REGENERATE = "npm run docs:api";

/** A JSON Schema node, as far as this script reads it. */
interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** Where a route is defined: its module (e.g. "drafts") and its doc comment's first sentence. */
interface RouteSource {
  module: string;
  exportName: string;
  summary: string | null;
}

const ACCESS: Record<RouteDef["access"], string> = {
  public: "none",
  user: "access key",
  admin: "admin key",
  superadmin: "superadmin key",
};

/** The doc comment's first sentence, on one line. */
const firstSentence = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  const end = /[.!?](\s|$)/.exec(flat);
  return end ? flat.slice(0, end.index + 1) : flat;
};

/** Each exported constant's doc comment in one source file, by name. */
const docComments = (file: string): Map<string, string> => {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const comments = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue;
      const docs = ts.getJSDocCommentsAndTags(declaration).filter(ts.isJSDoc);
      const text = docs.map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "").join(" ");
      if (text.trim()) comments.set(declaration.name.text, text);
    }
  }
  return comments;
};

/** Finds, for every route object of ROUTES, the api module and export that define it. */
const routeSources = async (): Promise<Map<RouteDef, RouteSource>> => {
  const sources = new Map<RouteDef, RouteSource>();
  const files = readdirSync(apiDir)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .sort();
  for (const name of files) {
    const file = path.join(apiDir, name);
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const comments = docComments(file);
    for (const [exportName, value] of Object.entries(exports)) {
      const route = ROUTES.find((candidate) => candidate === value);
      if (!route || sources.has(route)) continue;
      const comment = comments.get(exportName);
      sources.set(route, {
        module: name.replace(/\.ts$/, ""),
        exportName,
        summary: comment ? firstSentence(comment) : null,
      });
    }
  }
  return sources;
};

const toJson = (schema: z.ZodType, io: "input" | "output"): JsonSchema =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;

/** Markdown table cells: no pipes or line breaks. */
const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

const literal = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** A short type for a field: `string (uuid)`, `one of: a, b`, `object[]`, `string or null`. */
const typeOf = (schema: JsonSchema): string => {
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return [...new Set(union.map(typeOf))].join(" or ");
  if (schema.const !== undefined) return `\`${literal(schema.const)}\``;
  if (schema.enum)
    return `one of: ${schema.enum.map((value) => `\`${String(value)}\``).join(", ")}`;
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : schema.type;
  if (type === "array") return `${schema.items ? typeOf(schema.items) : "any"}[]`;
  if (!type) return "any";
  return schema.format ? `${type} (${schema.format})` : type;
};

interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  fallback: string;
  description: string;
}

/**
 * The rows of an object schema's fields, nested objects and arrays of objects flattened. A
 * nested field is "required" within its object: when the object itself is sent.
 */
const fieldRows = (schema: JsonSchema, prefix: string): FieldRow[] => {
  const rows: FieldRow[] = [];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const fieldName = `${prefix}${name}`;
    rows.push({
      name: fieldName,
      type: typeOf(field),
      required: (schema.required ?? []).includes(name),
      fallback: field.default === undefined ? "" : `\`${literal(field.default)}\``,
      description: field.description ?? "",
    });
    if (field.properties) rows.push(...fieldRows(field, `${fieldName}.`));
    else if (field.items?.properties) rows.push(...fieldRows(field.items, `${fieldName}[].`));
  }
  return rows;
};

/** The top-level field names of an answer (every branch of a union). */
const answerFields = (schema: JsonSchema): string[] => {
  const branches = schema.anyOf ?? schema.oneOf ?? [schema];
  const names = branches.flatMap((branch) => Object.keys(branch.properties ?? {}));
  return [...new Set(names)];
};

const requestTable = (route: RouteDef): string[] => {
  const rows: Array<FieldRow & { part: string }> = [];
  for (const part of ["params", "query", "body"] as const) {
    const schema = route[part];
    if (!schema) continue;
    for (const row of fieldRows(toJson(schema, "input"), "")) rows.push({ ...row, part });
  }
  if (rows.length === 0) return ["No parameters."];
  const withDescriptions = rows.some((row) => row.description);
  const header = ["in", "field", "type", "required", "default"];
  if (withDescriptions) header.push("description");
  const lines = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
  for (const row of rows) {
    const cells = [
      row.part,
      `\`${row.name}\``,
      row.type,
      row.required ? "yes" : "no",
      row.fallback,
    ];
    if (withDescriptions) cells.push(row.description);
    lines.push(`| ${cells.map(cell).join(" | ")} |`);
  }
  return lines;
};

const routeSection = (route: RouteDef, source: RouteSource | undefined): string[] => {
  const lines = [`### \`${route.method} ${route.path}\``, ""];
  if (source?.summary) lines.push(source.summary, "");
  const facts = [`Access: ${ACCESS[route.access]}.`];
  for (const owned of route.owned ?? [])
    facts.push(
      `\`${owned.in}.${owned.field}\` must name one of the caller's ${wordsOf(owned.object)}s (404 otherwise).`,
    );
  if (route.reads) facts.push("Only reads: waits in the read queue like a GET.");
  lines.push(facts.join(" "), "");
  lines.push(...requestTable(route), "");
  const answer = answerFields(toJson(route.response, "output"));
  lines.push(
    answer.length > 0
      ? `Answers: ${answer.map((name) => `\`${name}\``).join(", ")}.`
      : "Answers: a body that no JSON schema describes (see the route's source).",
  );
  lines.push("");
  if (source) lines.push(`Defined as \`${source.exportName}\` in \`${source.module}.ts\`.`, "");
  return lines;
};

/** "keyPayment" → "key payment". */
const wordsOf = (name: string): string =>
  name.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);

/** "admin-claims" → "Admin claims". */
const titleOf = (module: string): string => {
  const words = module.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const render = async (): Promise<string> => {
  const sources = await routeSources();
  const modules: string[] = [];
  for (const route of ROUTES) {
    const module = sources.get(route)?.module ?? "other";
    if (!modules.includes(module)) modules.push(module);
  }
  const moduleOf = (route: RouteDef): string => sources.get(route)?.module ?? "other";

  const lines = [
    `> Generated by \`scripts/gen-api-docs.ts\` from the route table in \`packages/shared/src/routes.ts\`: do not edit by hand; run \`${REGENERATE}\` to regenerate (\`npm run lint\` fails while it is out of date).`,
    "",
    "# HTTP API",
    "",
    `Every route the server answers (${ROUTES.length} in all), as \`ROUTES\` lists them. Each route's zod schemas live in \`packages/shared/src/api/<module>.ts\`; the server validates requests with the same schemas, so this page and the server cannot disagree.`,
    "",
    "- **Access**: `none` (public), `access key` (any valid key), `admin key` (admin or superadmin), `superadmin key`. The key travels in the `x-auth-key` header; without a valid key the answer is 401, with the wrong role 403, before the body is read.",
    "- **Owned fields**: an id or address that must name the caller's own object; another user's object answers 404 and changes nothing.",
    '- **Failures** answer `{"success": false, "error": "<message>"}` with a 4xx or 5xx status.',
    '- **Bad requests** (400) say the problem in one sentence that names the field by the label its form shows and the row counted from 1 ("Wallet 3 amount must be above 0"), and add where it is, so a form can mark the field and a grid the row: `{"success": false, "error": "...", "field": "amounts.2", "row": 3}` (`field`: the path in the request, indexes from 0, when the problem is in one field; `row`: the 1-based row of its first index, for a value in a list). The labels live beside each contract (`labelled` in `packages/shared/src/api/field-labels.ts`).',
    "- **Fields** of the request come from the zod schemas as the client sends them (defaults filled in by the server). Query and path values are strings on the wire.",
    "- **Realtime events** (socket.io, same origin) are typed in `packages/shared/src/socket.ts`.",
    "",
    "## Summary",
    "",
    "| method | path | access | description |",
    "| --- | --- | --- | --- |",
  ];
  for (const module of modules)
    for (const route of ROUTES.filter((candidate) => moduleOf(candidate) === module))
      lines.push(
        `| ${route.method} | \`${route.path}\` | ${ACCESS[route.access]} | ${cell(sources.get(route)?.summary ?? "")} |`,
      );
  lines.push("");
  for (const module of modules) {
    lines.push(`## ${titleOf(module)}`, "");
    for (const route of ROUTES.filter((candidate) => moduleOf(candidate) === module))
      lines.push(...routeSection(route, sources.get(route)));
  }
  return `${lines.join("\n").trimEnd()}\n`;
};

/**
 * The text as Biome formats Markdown (`npm run lint` checks docs/ too), so the file written and
 * the file checked are the same bytes.
 */
const formatted = (text: string): string => {
  const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
  const result = spawnSync(
    process.execPath,
    [biome, "format", `--stdin-file-path=${path.relative(root, target)}`],
    { cwd: root, input: text, encoding: "utf8" },
  );
  if (result.status !== 0)
    throw new Error(`biome could not format the generated docs/api.md: ${result.stderr}`);
  return result.stdout;
};

const main = async (): Promise<void> => {
  const check = process.argv.includes("--check");
  const text = formatted(await render());
  const relative = path.relative(root, target);
  if (!check) {
    writeFileSync(target, text);
    process.stdout.write(`Wrote ${relative} (${ROUTES.length} routes)\n`);
    return;
  }
  let current: string | null = null;
  try {
    current = readFileSync(target, "utf8");
  } catch {
    current = null;
  }
  if (current === text) return;
  const problem =
    current === null
      ? `${relative} is missing`
      : `${relative} is out of date with the route table (first difference at line ${firstDifference(current, text)})`;
  process.stderr.write(
    `${problem}: run \`${REGENERATE}\` and commit the result. It is generated from packages/shared/src/routes.ts and the zod schemas in packages/shared/src/api/.\n`,
  );
  process.exitCode = 1;
};

const firstDifference = (a: string, b: string): number => {
  const left = a.split("\n");
  const right = b.split("\n");
  let line = 0;
  while (line < left.length && line < right.length && left[line] === right[line]) line++;
  return line + 1;
};

await main();
