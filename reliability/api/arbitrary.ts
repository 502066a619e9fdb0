import fc from "fast-check";
import type { z } from "zod";

/**
 * fast-check arbitraries from zod 4 schemas, read through zod's public introspection
 * (`schema._zod.def`). `zod-fast-check` targets zod 3, so this covers the types the API's
 * contracts use (objects, arrays, strings with regex/uuid formats and lengths, numbers with
 * bounds, booleans, enums, literals, unions, optional/default/pipe/transform) and falls back to
 * `fc.anything()` for the rest. The values are the schema's own kind of value; `broken` then
 * breaks them the way a hostile client would.
 */

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definition is read structurally.
type Def = Record<string, any>;

const defOf = (schema: unknown): Def | undefined =>
  (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

const checksOf = (def: Def): Def[] =>
  ((def.checks ?? []) as Array<{ _zod: { def: Def } }>).map((check) => check._zod.def);

/** Keeps generated strings and arrays small: huge ones come from `broken`. */
const CAP = 64;

const stringOf = (def: Def): fc.Arbitrary<string> => {
  let minLength = 0;
  let maxLength = CAP;
  let limit = Number.POSITIVE_INFINITY;
  let pattern: RegExp | undefined;
  let uuid = def.format === "uuid";
  for (const check of checksOf(def)) {
    if (check.check === "min_length") minLength = check.minimum;
    if (check.check === "max_length") {
      maxLength = Math.min(CAP, check.maximum);
      limit = check.maximum;
    }
    if (check.check === "string_format" && check.format === "regex") pattern = check.pattern;
    if (check.check === "string_format" && check.format === "uuid") uuid = true;
  }
  if (uuid) return fc.uuid();
  if (pattern)
    return fc
      .stringMatching(pattern)
      .filter((value) => value.length >= minLength && value.length <= limit);
  const strings = fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
  // An overwrite check (`.trim()`) counts the length after it: keep the padding out of it.
  const trims = checksOf(def).some((check) => check.check === "overwrite");
  return trims ? strings.filter((value) => value.trim().length >= minLength) : strings;
};

const numberOf = (def: Def): fc.Arbitrary<number> => {
  let min: number | undefined;
  let max: number | undefined;
  let integer = false;
  for (const check of checksOf(def)) {
    if (check.check === "greater_than") min = Number(check.value) + (check.inclusive ? 0 : 1e-9);
    if (check.check === "less_than") max = Number(check.value) - (check.inclusive ? 0 : 1e-9);
    if (check.check === "number_format") integer = true;
  }
  if (integer)
    return fc.integer({
      min: min === undefined ? -1_000_000 : Math.ceil(min),
      max: max === undefined ? 1_000_000 : Math.floor(max),
    });
  return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
};

/** A value of the schema's shape (mostly valid; refinements are not solved for). */
export const arbitraryOf = (schema: unknown, depth = 0): fc.Arbitrary<unknown> => {
  const def = defOf(schema);
  if (!def || depth > 12) return fc.anything();
  switch (def.type) {
    case "string":
      return stringOf(def);
    case "number":
      return numberOf(def);
    case "boolean":
      return fc.boolean();
    case "enum":
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "optional":
    case "default":
    case "nullable":
      return fc.option(arbitraryOf(def.innerType, depth + 1), { nil: undefined, freq: 4 });
    case "pipe":
      return arbitraryOf(def.in, depth + 1);
    case "union":
      return fc.oneof(
        ...(def.options as unknown[]).map((option) => arbitraryOf(option, depth + 1)),
      );
    case "array": {
      let minLength = 0;
      let maxLength = 5;
      for (const check of checksOf(def)) {
        if (check.check === "min_length") minLength = check.minimum;
        if (check.check === "max_length") maxLength = Math.min(maxLength, check.maximum);
      }
      return fc.array(arbitraryOf(def.element, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, maxLength),
      });
    }
    case "object": {
      const shape = def.shape as Record<string, unknown>;
      const entries = Object.entries(shape).map(
        ([key, value]) => [key, arbitraryOf(value, depth + 1)] as const,
      );
      return fc
        .tuple(...entries.map(([, arbitrary]) => arbitrary))
        .map((values) =>
          Object.fromEntries(
            entries
              .map(([key], index) => [key, values[index]] as const)
              .filter(([, value]) => value !== undefined),
          ),
        );
    }
    default:
      return fc.anything();
  }
};

const HEX = "0123456789abcdef";

/** What hostile clients send instead of a field's value. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    -1,
    -0.5,
    0,
    1e30,
    -1e30,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    "1e30",
    "-1",
    "-0.0",
    "NaN",
    "Infinity",
    "0x",
    `0x${"g".repeat(40)}`,
    `0x${"0".repeat(39)}`,
    `0x${"f".repeat(41)}`,
    `0x${"0".repeat(40)}`,
    `0x${"0".repeat(64)}`,
    "00000000-0000-0000-0000-000000000000",
    "../../etc/passwd",
    "'; drop table users; --",
    "\u0000",
    "\u202e𝕏😀\ud800",
    "__proto__",
    "constructor",
    null,
    true,
    [],
    {},
    "",
    " ",
  ),
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 80 }),
  fc.stringMatching(/^0x[0-9a-fA-F]{0,70}$/),
  fc.integer({ min: 1_000, max: 200_000 }).map((length) => HEX[length % 16]?.repeat(length)),
  fc.integer({ min: 1_000, max: 20_000 }).map((length) => Array.from({ length }, () => 1)),
  fc.double(),
  fc.bigInt().map(String),
  fc.anything({ maxDepth: 3 }),
);

/** An own, enumerable key JSON keeps, even `__proto__`. */
const withOwnKey = (target: Record<string, unknown>, key: string, value: unknown) => {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return target;
};

const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype"] as const;

type Mutation =
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "drop"; at: number }
  | { kind: "prototype"; at: number; key: (typeof PROTOTYPE_KEYS)[number]; value: unknown }
  | { kind: "whole"; value: unknown }
  | { kind: "deeper"; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("replace" as const),
      at: fc.nat(),
      value: hostileValue,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("prototype" as const),
      at: fc.nat(),
      key: fc.constantFrom(...PROTOTYPE_KEYS),
      value: fc.constantFrom<unknown>(
        { role: "superadmin" },
        { isAdmin: true },
        { toString: 1 },
        "x",
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("whole" as const), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("deeper" as const), at: fc.nat() }) },
);

/** Applies mutations to a (copy of a) value: the innermost first for "deeper". */
const apply = (value: unknown, mutations: Mutation[]): unknown => {
  const [first, ...rest] = mutations;
  if (!first) return value;
  if (first.kind === "whole") return first.value;
  if (Array.isArray(value)) {
    const copy = [...value];
    const at = copy.length ? first.at % copy.length : 0;
    if (first.kind === "replace") copy[at] = first.value;
    else if (first.kind === "drop") copy.splice(at, 1);
    else if (first.kind === "deeper") copy[at] = apply(copy[at], rest);
    else return apply(withOwnKey({ items: copy }, first.key, first.value), rest);
    return first.kind === "deeper" ? copy : apply(copy, rest);
  }
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(copy);
    const key = keys.length ? keys[first.at % keys.length] : "field";
    if (first.kind === "prototype") withOwnKey(copy, first.key, first.value);
    else if (first.kind === "replace") copy[key as string] = first.value;
    else if (first.kind === "drop") delete copy[key as string];
    else if (first.kind === "deeper") copy[key as string] = apply(copy[key as string], rest);
    return first.kind === "deeper" ? copy : apply(copy, rest);
  }
  // A scalar: anything but what it should be.
  return first.kind === "replace" ? first.value : apply(value, rest);
};

/** A value of the schema, then broken by one to three hostile mutations. */
export const brokenOf = (schema: unknown): fc.Arbitrary<unknown> =>
  fc
    .tuple(arbitraryOf(schema), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([value, mutations]) => apply(value, mutations));

/** Mostly broken values, sometimes the schema's own: a route's part as hostile clients send it. */
export const hostileOf = (schema: z.ZodType | undefined): fc.Arbitrary<unknown> =>
  schema
    ? fc.oneof(
        { weight: 1, arbitrary: arbitraryOf(schema) },
        { weight: 4, arbitrary: brokenOf(schema) },
      )
    : fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: brokenOf(undefined) },
      );
