// Building blocks of the OpenAPI document: zod → JSON Schema (draft 2020-12,
// which OpenAPI 3.1 uses), and the parts every operation repeats.
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;
export type Surface = "computers" | "v1";

/**
 * The JSON Schema of what a zod schema accepts (`io: "input"`: before defaults
 * and transforms, which is what a client sends). Types with no JSON form
 * (`z.undefined()` used to refuse a field) become `{}`.
 */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "input"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

/** The same schema without one property (the per-action paths take an action's fields without `type`). */
export function withoutProperty(schema: JsonSchema, name: string): JsonSchema {
  const properties = { ...(schema.properties as Record<string, unknown>) };
  delete properties[name];
  const required = ((schema.required as string[] | undefined) ?? []).filter((r) => r !== name);
  return { ...schema, properties, ...(required.length ? { required } : { required: undefined }) };
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const jsonContent = (schema: JsonSchema) => ({ "application/json": { schema } });

export function requestBody(schema: JsonSchema, required: boolean, example?: unknown) {
  return { required, content: { "application/json": { schema, ...(example !== undefined ? { example } : {}) } } };
}

export function pathParam(name: string, description: string, example: string) {
  return { name, in: "path", required: true, description, schema: { type: "string" }, example };
}

export function queryParams(schema: JsonSchema) {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: "query",
    required: required.has(name) && s.default === undefined,
    schema: s,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
  }));
}

const ERRORS: Record<Surface, Record<string, string>> = {
  computers: {
    "400": "Bad request: the body or a parameter is invalid (named in `param`)",
    "401": "Missing or invalid API key",
    "404": "Unknown session, or one of another organization",
    "409": "The session is terminated",
    "413": "Body over MAX_REQUEST_BODY_BYTES",
    "429": "Rate limited or over quota (`retry-after`)",
  },
  v1: {
    "400": "Invalid request (invalid_request_error)",
    "401": "Invalid API key (authentication_error)",
    "404": "Unknown model or response (not_found_error)",
    "413": "Body over MAX_REQUEST_BODY_BYTES",
    "429": "Rate limit or budget exceeded (rate_limit_error, insufficient_quota)",
    "502": "The upstream model failed (server_error)",
  },
};

/** The error answers of a surface, each in its envelope. */
export function errorResponses(surface: Surface, only?: string[]) {
  const envelope = ref(surface === "v1" ? "OpenAIError" : "ApiError");
  return Object.fromEntries(
    Object.entries(ERRORS[surface])
      .filter(([status]) => !only || only.includes(status))
      .map(([status, description]) => [status, { description, content: jsonContent(envelope) }]),
  );
}

export interface OperationSpec {
  tag: string;
  summary: string;
  description?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  security?: unknown[];
}

export function operation(surface: Surface, id: string, spec: OperationSpec, errors?: string[]) {
  return {
    operationId: id,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    ...(spec.security ? { security: spec.security } : {}),
    responses: { ...spec.responses, ...errorResponses(surface, errors) },
  };
}

export const ok = (description: string, schema: JsonSchema, mediaType = "application/json") => ({
  description,
  content: { [mediaType]: { schema } },
});
