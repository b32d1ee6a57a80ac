// JSON Schema (as clients send it in tools and response_format) to the schema
// dialect node-llama-cpp turns into a GBNF grammar (GbnfJsonSchema). The
// grammar is tighter than the schema, never looser, so what it generates
// always validates against the original:
// - only declared properties are generated, all of them (node-llama-cpp's rule;
//   a property that is optional may still be present);
// - strings and arrays get an upper bound (the placeholder
//   model would otherwise ramble inside a string until max_tokens, and the
//   JSON would never close).
// Keywords a grammar cannot enforce (pattern, a tight minimum, ...) are refused
// with a 400 naming where they are, rather than producing output that fails
// them. Numeric bounds the grammar's numbers always keep (`GRAMMAR_NUMBER_LIMIT`)
// are accepted: zod 4's `.int()` writes the safe-integer bounds on every integer.
import type { GbnfJsonSchema } from "node-llama-cpp";
import { AppError } from "@/lib/api/errors";

export const MAX_STRING_LENGTH = 48;
export const MAX_ARRAY_ITEMS = 4;
export const MAX_MAP_ENTRIES = 4;
/**
 * Every number the grammar produces has at most 15 integer digits (`grammarFor` trims node-llama-cpp's
 * 16), so its absolute value is below 10^15, inside the safe integers (2^53 - 1 = 9007199254740991).
 */
export const GRAMMAR_NUMBER_LIMIT = 1e15;
const NUMERIC_BOUNDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

type Json = Record<string, unknown>;

/** Keywords that only describe; they constrain nothing, so they are dropped. */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "$schema",
  "$id",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "strict",
  "nullable",
]);
const HANDLED = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "format",
  "enum",
  "const",
  "oneOf",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
]);
const FORMATS = new Set(["date-time", "time", "date"]);
const SCALARS = new Set(["string", "number", "integer", "boolean", "null"]);

/** A bounded value of any scalar type: what `{}` (any value) becomes. */
const ANY_SCALAR: GbnfJsonSchema = {
  oneOf: [{ type: "string", maxLength: MAX_STRING_LENGTH }, { type: ["number", "boolean", "null"] }],
};

/**
 * GBNF for `response_format: json_object`: an object of 1-4 scalar members.
 * Written by hand because node-llama-cpp's free-form keys have no length
 * bound (the placeholder model would never close the first key).
 */
export const JSON_OBJECT_GBNF = [
  String.raw`root ::= "{" ws member ("," ws member){0,${MAX_MAP_ENTRIES - 1}} ws "}"`,
  String.raw`member ::= key ws ":" ws value`,
  String.raw`key ::= "\"" [A-Za-z_] [A-Za-z0-9_]{0,31} "\""`,
  String.raw`value ::= string | number | "true" | "false" | "null"`,
  String.raw`string ::= "\"" char{0,${MAX_STRING_LENGTH}} "\""`,
  String.raw`char ::= [^"\\\x00-\x1f] | "\\" ["\\/bfnrt]`,
  String.raw`number ::= "-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,16})?`,
  String.raw`ws ::= [ ]?`,
].join("\n");

function unsupported(where: string, what: string): AppError {
  return new AppError(
    "invalid_request",
    `${where}: ${what} cannot be enforced by this model's grammar; remove it or use a model served by an upstream`,
    {
      param: where,
      detail: "unsupported_schema",
    },
  );
}

const bound = (min: unknown, max: unknown, cap: number) => {
  const lower = typeof min === "number" ? min : 0;
  const upper = typeof max === "number" ? Math.min(max, Math.max(lower, cap)) : Math.max(lower, cap);
  return { ...(lower > 0 ? { min: lower } : {}), max: upper };
};

/** Converts `schema` (found at `where`, for error messages) or throws a 400. */
export function toGrammarSchema(schema: unknown, where: string): GbnfJsonSchema {
  if (schema === true || schema === undefined) return ANY_SCALAR;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw unsupported(where, "a schema that is not an object");
  const s = schema as Json;
  for (const key of Object.keys(s)) {
    if (NUMERIC_BOUNDS.includes(key)) checkNumericBound(key, s[key], `${where}.${key}`);
    else if (!ANNOTATIONS.has(key) && !HANDLED.has(key)) throw unsupported(`${where}.${key}`, `the keyword '${key}'`);
  }
  const defs = (s.$defs ?? s.definitions) as Json | undefined;
  const withDefs = (value: GbnfJsonSchema): GbnfJsonSchema =>
    defs
      ? ({
          ...value,
          $defs: Object.fromEntries(
            Object.entries(defs).map(([k, v]) => [k, toGrammarSchema(v, `${where}.$defs.${k}`)]),
          ),
        } as GbnfJsonSchema)
      : value;

  if (s.const !== undefined) return { const: s.const as string };
  if (Array.isArray(s.enum)) return { enum: s.enum as string[] };
  if (typeof s.$ref === "string") {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(s.$ref)?.[1];
    if (!name) throw unsupported(`${where}.$ref`, `the reference '${s.$ref}' (only #/$defs/<name>)`);
    return { $ref: `#/$defs/${name}` } as GbnfJsonSchema;
  }
  const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (alternatives) {
    if (!Array.isArray(alternatives) || !alternatives.length) throw unsupported(where, "an empty oneOf/anyOf");
    return withDefs({
      oneOf: alternatives.map((a, i) => toGrammarSchema(a, `${where}.${s.oneOf ? "oneOf" : "anyOf"}[${i}]`)),
    });
  }

  const types = s.type === undefined ? undefined : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  if (!types) return withDefs(s.properties ? objectSchema(s, where) : ANY_SCALAR);
  if (types.length > 1) {
    // ["string", "null"] and the like: one grammar per type.
    return withDefs({
      oneOf: types.map((t) => toGrammarSchema({ ...s, type: t, $defs: undefined, definitions: undefined }, where)),
    });
  }
  const type = types[0]!;
  if (type === "object") return withDefs(objectSchema(s, where));
  if (type === "array") {
    const { min, max } = bound(s.minItems, s.maxItems, MAX_ARRAY_ITEMS);
    const prefixItems = Array.isArray(s.prefixItems)
      ? s.prefixItems.map((p, i) => toGrammarSchema(p, `${where}.prefixItems[${i}]`))
      : undefined;
    return withDefs({
      type: "array",
      items: toGrammarSchema(s.items, `${where}.items`),
      ...(prefixItems ? { prefixItems } : {}),
      ...(min ? { minItems: min } : {}),
      maxItems: Math.max(max, prefixItems?.length ?? 0),
    });
  }
  if (type === "string") {
    if (s.format !== undefined) {
      if (!FORMATS.has(s.format as string)) throw unsupported(`${where}.format`, `the format '${String(s.format)}'`);
      return { type: "string", format: s.format as "date" };
    }
    const { min, max } = bound(s.minLength, s.maxLength, MAX_STRING_LENGTH);
    return { type: "string", ...(min ? { minLength: min } : {}), maxLength: max };
  }
  if (!SCALARS.has(type)) throw unsupported(`${where}.type`, `the type '${type}'`);
  return { type: type as "number" };
}

/**
 * A bound no grammar number can break (e.g. `maximum: 9007199254740991`) is kept as a no-op; a tighter one is refused.
 */
function checkNumericBound(key: string, value: unknown, where: string) {
  const lower = key === "minimum" || key === "exclusiveMinimum";
  const loose = typeof value === "number" && (lower ? value <= -GRAMMAR_NUMBER_LIMIT : value >= GRAMMAR_NUMBER_LIMIT);
  if (!loose)
    throw unsupported(
      where,
      `the keyword '${key}' (only bounds at or beyond ${lower ? "-" : ""}10^15 hold for every number the ` +
        `grammar writes)`,
    );
}

function objectSchema(s: Json, where: string): GbnfJsonSchema {
  const properties = (s.properties ?? {}) as Json;
  const converted = Object.fromEntries(
    Object.entries(properties).map(([k, v]) => [k, toGrammarSchema(v, `${where}.properties.${k}`)]),
  );
  // Never extra keys: whatever additionalProperties allows, it does not require them, and
  // node-llama-cpp's free-form keys are unbounded. Its schema is still checked for what we refuse.
  if (s.additionalProperties && typeof s.additionalProperties === "object")
    toGrammarSchema(s.additionalProperties, `${where}.additionalProperties`);
  return { type: "object", properties: converted };
}
