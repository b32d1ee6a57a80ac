// @needs nothing
// The API reference page's digest of the OpenAPI document (referenceOf, typeLabel).
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/routes/openapi/document";
import { referenceOf, typeLabel } from "@/lib/routes/openapi/reference";

const ORIGIN = "https://cabin.example";

describe("referenceOf", () => {
  const doc = buildOpenApiDocument();
  const sections = referenceOf(doc, ORIGIN);
  const operations = sections.flatMap((s) => s.operations);

  it("lists every operation of the document once, under its tag, in the document's tag order", () => {
    const expected = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(expected.sort());
    const tagOrder = doc.tags.map((t) => t.name).filter((t) => sections.some((s) => s.tag === t));
    expect(sections.map((s) => s.tag)).toEqual(tagOrder);
    expect(new Set(sections.map((s) => s.surface))).toEqual(new Set(["computers", "v1"]));
  });

  it("names path, query and body fields with their types, and what each operation answers", () => {
    const create = operations.find((o) => o.id === "createComputer")!;
    expect(create.fields.find((f) => f.name === "kind")).toMatchObject({
      in: "body",
      type: 'enum: "browser" | "desktop"',
      required: false,
    });
    const tabs = operations.find((o) => o.id === "listTabs")!;
    expect(tabs.fields.find((f) => f.name === "id")).toMatchObject({ in: "path", required: true, type: "string" });
    const list = operations.find((o) => o.id === "listComputers")!;
    expect(list.fields.find((f) => f.name === "limit")?.in).toBe("query");
    expect(create.responses.map((r) => r.status)).toEqual(expect.arrayContaining(["200", "400", "401"]));
  });

  it("writes a curl with the origin, the path's example ids, the key variable and the body's example", () => {
    const chat = operations.find((o) => o.id === "createChatCompletion")!;
    expect(chat.curl).toMatch(new RegExp(`^curl -X POST ${ORIGIN}/v1/chat/completions \\\\\n`));
    expect(chat.curl).toContain('-H "Authorization: Bearer $CABIN_API_KEY"');
    expect(chat.curl).toContain("-d '");
    const tabs = operations.find((o) => o.id === "listTabs")!;
    expect(tabs.curl.split(" \\\n")[0]).toBe(`curl ${ORIGIN}/computers/comp_0123456789abcdef/tabs`);
  });
});

describe("typeLabel", () => {
  const doc = { tags: [], paths: {}, components: { schemas: { Id: { type: "string" } } } };
  it("follows refs and names bounds, arrays, unions and constants", () => {
    expect(typeLabel({ $ref: "#/components/schemas/Id" }, doc)).toBe("string");
    expect(typeLabel({ type: "integer", minimum: 1, maximum: 100 }, doc)).toBe("integer ≥ 1, ≤ 100");
    expect(typeLabel({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, doc)).toBe("integer ≥ 1");
    expect(typeLabel({ type: "array", items: { type: "string" } }, doc)).toBe("array of string");
    expect(typeLabel({ anyOf: [{ type: "string" }, { type: "null" }] }, doc)).toBe("string or null");
    expect(typeLabel({ const: "screenshot" }, doc)).toBe('"screenshot"');
    expect(typeLabel({}, doc)).toBe("any");
  });
});
