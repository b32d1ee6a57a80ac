// The dashboard's API reference page reads the OpenAPI document (openApiDocument)
// through this digest: operations grouped by tag, each with its parameters, the
// top-level fields of its JSON body, its answers and a curl command. Plain data, so
// the server renders it and the client page only filters and expands.
import type { JsonSchema } from "@/lib/routes/openapi/build";

export interface ReferenceField {
  name: string;
  /** Where it goes: path, query, header, or body. */
  in: string;
  type: string;
  required: boolean;
  description: string;
}

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  fields: ReferenceField[];
  responses: { status: string; description: string }[];
  curl: string;
}

export interface ReferenceSection {
  tag: string;
  description: string;
  surface: string;
  operations: ReferenceOperation[];
}

interface Document {
  tags: { name: string; description: string; "x-surface"?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema> };
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/**
 * A schema with its `$ref` followed (one level at a time, as deep as the refs go); a boolean schema (`items: false`) as
 * `{}`.
 */
function resolve(schema: JsonSchema | boolean | undefined, doc: Document): JsonSchema {
  let s = typeof schema === "object" && schema !== null ? schema : {};
  for (let hops = 0; typeof s.$ref === "string" && hops < 10; hops++) {
    s = doc.components.schemas[(s.$ref as string).replace("#/components/schemas/", "")] ?? {};
  }
  return s;
}

/** A short type label: "string", "integer ≥ 1", "enum: a | b", "array of string", "one of 23 shapes". */
export function typeLabel(raw: JsonSchema | undefined, doc: Document): string {
  const s = resolve(raw, doc);
  if (Array.isArray(s.enum)) return `enum: ${(s.enum as unknown[]).map((v) => JSON.stringify(v)).join(" | ")}`;
  if ("const" in s) return JSON.stringify(s.const);
  const variants = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (variants) {
    const labels = [...new Set(variants.map((v) => typeLabel(v, doc)))];
    return labels.length > 4 ? `one of ${labels.length} shapes` : labels.join(" or ");
  }
  if (s.type === "array") return `array of ${typeLabel(s.items as JsonSchema, doc)}`;
  const type = Array.isArray(s.type) ? (s.type as string[]).join(" or ") : typeof s.type === "string" ? s.type : "any";
  // zod's int() carries the safe-integer range as bounds: no bound a reader needs to know.
  const bounds = [
    typeof s.minimum === "number" && s.minimum > Number.MIN_SAFE_INTEGER ? `≥ ${s.minimum}` : "",
    typeof s.maximum === "number" && s.maximum < Number.MAX_SAFE_INTEGER ? `≤ ${s.maximum}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return bounds ? `${type} ${bounds}` : type;
}

function bodyFields(operation: Record<string, any>, doc: Document): ReferenceField[] {
  const schema = resolve(operation.requestBody?.content?.["application/json"]?.schema, doc);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, field]) => ({
    name,
    in: "body",
    type: typeLabel(field, doc),
    required: required.has(name),
    description: String(resolve(field, doc).description ?? field.description ?? ""),
  }));
}

function curlOf(method: string, path: string, operation: Record<string, any>, origin: string): string {
  const params = (operation.parameters ?? []) as { name: string; in: string; example?: unknown }[];
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    String(params.find((p) => p.name === name)?.example ?? `<${name}>`),
  );
  const lines = [
    `curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} ${origin}${url}`,
    `  -H "Authorization: Bearer $CABIN_API_KEY"`,
  ];
  const example = operation.requestBody?.content?.["application/json"]?.example;
  if (operation.requestBody) {
    lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(example ?? {})}'`);
  }
  return lines.join(" \\\n");
}

/** The document's operations by tag, in the document's tag order. */
export function referenceOf(doc: Document, origin: string): ReferenceSection[] {
  const sections = doc.tags.map(
    (t): ReferenceSection => ({
      tag: t.name,
      description: t.description,
      surface: t["x-surface"] ?? "",
      operations: [],
    }),
  );
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Record<string, any> | undefined;
      if (!operation) continue;
      const section = sections.find((s) => s.tag === operation.tags?.[0]);
      if (!section) continue;
      const params = ((operation.parameters ?? []) as Record<string, any>[]).map(
        (p): ReferenceField => ({
          name: p.name,
          in: p.in,
          type: typeLabel(p.schema, doc),
          required: Boolean(p.required),
          description: p.description ?? "",
        }),
      );
      section.operations.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? "",
        description: operation.description ?? "",
        fields: [...params, ...bodyFields(operation, doc)],
        responses: Object.entries((operation.responses ?? {}) as Record<string, { description?: string }>).map(
          ([status, r]) => ({ status, description: r.description ?? "" }),
        ),
        curl: curlOf(method, path, operation, origin),
      });
    }
  }
  return sections.filter((s) => s.operations.length > 0);
}
