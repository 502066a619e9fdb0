import { z } from "zod";

/**
 * A request's fields as its form labels them, by path: object keys joined with ".", an array
 * index written "#" ("walletConfig.wallets.#.buyValue"). A label may hold "{row}", the 1-based
 * row of the first array index in the path ("Wallet {row} amount" → "Wallet 3 amount").
 */
export type FieldLabels = Readonly<Record<string, string>>;

/** Each request schema's labels, kept beside its contract (see `labelled`). */
const registry = new WeakMap<z.ZodType, FieldLabels>();

/**
 * Gives a request schema the labels its form shows, so a 400 names the field as the user
 * knows it. Returns the same schema.
 *
 * @example
 * const body = labelled(z.object({ walletCount: z.number().max(100) }), { walletCount: "Number of wallets" });
 * describeRequestProblem(body, { walletCount: 500 })?.error; // "Number of wallets must be at most 100"
 */
export const labelled = <S extends z.ZodType>(schema: S, labels: FieldLabels): S => {
  registry.set(schema, labels);
  return schema;
};

export const labelsOf = (schema: z.ZodType): FieldLabels => registry.get(schema) ?? {};

/**
 * A 400's body: the spec's `{success:false, error}`, where `error` is one sentence naming the
 * field by its label (and its row, counted from 1), plus where the problem is, so a form can
 * mark the field and a grid the row: `field` is the path of the offending value as the request
 * named it ("amounts.2", indexes from 0), absent when the problem is not one field's; `row` the
 * 1-based row of its first array index (3 for "amounts.2"), absent outside a list.
 */
export const badRequestResponseSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  field: z.string().optional(),
  row: z.number().int().min(1).optional(),
});
export type BadRequestResponse = z.infer<typeof badRequestResponseSchema>;

export interface RequestProblem {
  error: string;
  field?: string;
  row?: number;
}

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

/** Zod's own message (no schema gave one): replaced by a sentence built from the issue. */
const DEFAULT_MARK = "\u0000default";
const markDefaults = () => DEFAULT_MARK;

/** Messages shared by many fields, which say nothing of the field: said after its label. */
const GENERIC: Readonly<Record<string, string>> = {
  "Invalid address format": "must be an address: 0x and 40 hex characters",
  "Invalid private key": "must be a private key: 64 hex characters, 0x optional",
};

const humanize = (key: string): string => {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The label of a path, with its row; unlabelled fields read as their key ("Buy size"). */
export function labelFor(
  path: readonly PathKey[],
  labels: FieldLabels,
): { label: string; row?: number } {
  const firstIndex = path.findIndex((key) => typeof key === "number");
  const row = firstIndex >= 0 ? Number(path[firstIndex]) + 1 : undefined;
  const pattern = path.map((key) => (typeof key === "number" ? "#" : String(key))).join(".");
  const template = labels[pattern];
  if (template) return { label: template.replaceAll("{row}", String(row ?? "")), row };
  const last = [...path].reverse().find((key) => typeof key === "string");
  if (last === undefined) return { label: row ? `Row ${row}` : "The request", row };
  const name = humanize(String(last));
  return { label: row ? `${name} in row ${row}` : name, row };
}

const plural = (n: number | bigint, one: string, many: string) =>
  `${n} ${Number(n) === 1 ? one : many}`;

/** A sentence for an issue zod phrased itself ("Too big: expected number to be <=100"). */
function defaultSentence(issue: Issue, label: string): string {
  switch (issue.code) {
    case "too_big": {
      const max = issue.maximum;
      if (issue.origin === "string")
        return `${label} must be at most ${plural(max, "character", "characters")}`;
      if (issue.origin === "array" || issue.origin === "set")
        return `${label} can have at most ${plural(max, "entry", "entries")}`;
      return `${label} must be ${issue.inclusive === false ? "less than" : "at most"} ${max}`;
    }
    case "too_small": {
      const min = issue.minimum;
      if (issue.origin === "string")
        return Number(min) <= 1
          ? `${label} is required`
          : `${label} must be at least ${plural(min, "character", "characters")}`;
      if (issue.origin === "array" || issue.origin === "set")
        return `${label} needs at least ${plural(min, "entry", "entries")}`;
      return `${label} must be ${issue.inclusive === false ? "more than" : "at least"} ${min}`;
    }
    case "invalid_type": {
      const given = (issue as { input?: unknown }).input;
      if (given === undefined || given === null) return `${label} is required`;
      if ((issue.expected as string) === "int") return `${label} must be a whole number`;
      if (issue.expected === "number") return `${label} must be a number`;
      if (issue.expected === "boolean") return `${label} must be true or false`;
      if (issue.expected === "array") return `${label} must be a list`;
      if (issue.expected === "string") return `${label} must be text`;
      return `${label} is not in the expected form`;
    }
    case "invalid_value":
      return `${label} must be one of: ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      return issue.format === "uuid" || issue.format === "guid"
        ? `${label} is not a valid id`
        : `${label} is not in the expected format`;
    case "not_multiple_of":
      return `${label} must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `${label} has fields that are not accepted: ${issue.keys.join(", ")}`;
    default:
      return `${label} is not valid`;
  }
}

/** One issue as a sentence with its field's label and row. */
export function describeIssue(issue: Issue, labels: FieldLabels = {}): RequestProblem {
  const path = issue.path as PathKey[];
  const { label, row } = labelFor(path, labels);
  const field = path.length > 0 ? path.map(String).join(".") : undefined;
  const message = issue.message;
  const key = [...path].reverse().find((k): k is string => typeof k === "string");
  let error: string;
  if (message === DEFAULT_MARK || message === "") error = defaultSentence(issue, label);
  // A list's row: "Wallet 3 address must be an address: ..."; a lone field keeps the words
  // (SPEC §5's own, such as the bumper form's "Invalid address format").
  else if (row && GENERIC[message]) error = `${label} ${GENERIC[message]}`;
  // A message that starts with the field's own name ("page must be ...") takes its label.
  else if (key && message.toLowerCase().startsWith(`${key.toLowerCase()} `))
    error = `${label}${message.slice(key.length)}`;
  // A predicate ("must be a BNB amount below ...") reads after its field's label.
  else if (/^[a-z]/.test(message)) error = `${label} ${message}`;
  else error = message;
  return { error, ...(field ? { field } : {}), ...(row ? { row } : {}) };
}

/**
 * Parses a request part with its contract: the value, or the first problem as a sentence with
 * the field's label (from `labelled`, or `labels`) and row.
 */
export function parseRequestPart<S extends z.ZodType>(
  schema: S,
  value: unknown,
  labels: FieldLabels = labelsOf(schema),
): { success: true; data: z.output<S> } | { success: false; problem: RequestProblem } {
  const parsed = schema.safeParse(value, { error: markDefaults, reportInput: true });
  if (parsed.success) return { success: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    success: false,
    problem: issue ? describeIssue(issue, labels) : { error: "The request is not valid" },
  };
}

/** The first problem of `value` under `schema` as a sentence, or null when it parses. */
export const describeRequestProblem = (
  schema: z.ZodType,
  value: unknown,
  labels?: FieldLabels,
): RequestProblem | null => {
  const parsed = parseRequestPart(schema, value, labels);
  return parsed.success ? null : parsed.problem;
};
