// @needs server light chromium
// GET /openapi.json (docs/operations.md "API reference"): public, a valid OpenAPI 3.1 document (checked by
// a real validator), and true to the server: every route file under app/computers
// and app/v1 is in it, and every operation it lists reaches a route of the server,
// with each documented example body accepted as it is.
import { readdirSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { NAMED_ACTION_TYPES } from "@/lib/computers/actions/action-service";
import { modelRouteList } from "@/lib/models/gateway/route-table";
import { call } from "./client";
import { api, createSession } from "./computers-fixtures";

type Operation = { operationId: string; requestBody?: { content: Record<string, { example?: unknown }> } };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; servers: { url: string }[] };

let doc: Document;
let sessionId: string;

beforeAll(async () => {
  const res = await call<Document>("GET", "/openapi.json", { key: null });
  expect(res.status).toBe(200);
  doc = res.body;
  sessionId = (await createSession()).id;
});
afterAll(async () => {
  if (sessionId) await api("DELETE", `/computers/${sessionId}`);
});

/** Route files as OpenAPI path templates: `[id]` → `{id}`; catch-alls are kept as `[...rest]`. */
function routeTemplates(dir: string, prefix: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name === "route.ts") found.push(prefix || "/");
    if (!entry.isDirectory()) continue;
    const part =
      entry.name.startsWith("[[") || entry.name.startsWith("[...")
        ? entry.name
        : entry.name.replace(/^\[(.+)\]$/, "{$1}");
    found.push(...routeTemplates(path.join(dir, entry.name), `${prefix}/${part}`));
  }
  return found;
}

describe("GET /openapi.json", () => {
  it("is served without a key, with the edge's headers, and is valid OpenAPI 3.1", async () => {
    const res = await fetch(`${inject("baseUrl")}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0]!.url).toBe(inject("baseUrl"));
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it("lists every route file under app/computers and app/v1", () => {
    const documented = new Set(Object.keys(doc.paths));
    const root = path.resolve(import.meta.dirname, "../..");
    const templates = [
      ...routeTemplates(path.join(root, "app/computers"), "/computers"),
      ...routeTemplates(path.join(root, "app/v1"), "/v1"),
      ...routeTemplates(path.join(root, "app/credentials"), "/credentials"),
      ...routeTemplates(path.join(root, "app/profiles"), "/profiles"),
      ...routeTemplates(path.join(root, "app/agent"), "/agent"),
    ];
    expect(templates.length).toBeGreaterThan(15);
    for (const template of templates) {
      if (template.endsWith("/[...rest]")) {
        // The per-action catch-all: each named action path.
        for (const name of Object.keys(NAMED_ACTION_TYPES))
          expect(documented, `/computers/{id}/${name}`).toContain(`/computers/{id}/${name}`);
      } else if (template.endsWith("/[[...rest]]")) {
        // /v1's one catch-all serves the route table: each of its paths and methods.
        for (const route of modelRouteList()) {
          for (const method of route.methods)
            expect(doc.paths[route.path]?.[method.toLowerCase()], `${method} ${route.path}`).toBeDefined();
        }
      } else {
        expect(documented, template).toContain(template);
      }
    }
  });

  it("every operation reaches a route, and every example body is accepted", async () => {
    const operations = Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ template, method: method.toUpperCase(), op })),
    );
    // Ending the session last: everything else needs it alive.
    operations.sort(
      (a, b) =>
        Number(a.method === "DELETE" && a.template === "/computers/{id}") -
        Number(b.method === "DELETE" && b.template === "/computers/{id}"),
    );
    const checked: string[] = [];
    for (const { template, method, op } of operations) {
      const url = template
        .replace(
          "{id}",
          template.startsWith("/v1/models")
            ? "svc.sm-1"
            : template.startsWith("/v1/responses")
              ? "resp_unknown"
              : sessionId,
        )
        .replace("{tab_id}", "tab_main")
        // The credential the create example stores; elsewhere {name} is a screenshot's.
        .replace("{name}", template.startsWith("/credentials") ? "acme" : "missing.png");
      const example = op.requestBody?.content["application/json"]?.example;
      const controller = new AbortController();
      const res = await fetch(`${inject("baseUrl")}${url}`, {
        method,
        signal: controller.signal,
        headers: {
          authorization: `Bearer ${inject("apiKey")}`,
          ...(example !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: example !== undefined ? JSON.stringify(example) : undefined,
      });
      const streamed = /event-stream|ndjson/.test(res.headers.get("content-type") ?? "");
      const text = streamed ? "" : await res.text();
      controller.abort();
      const what = `${method} ${template} → ${res.status} ${text.slice(0, 300)}`;
      // Neither surface's "no such endpoint" nor a wrong method: the document names real routes.
      expect.soft(res.status, what).not.toBe(405);
      expect.soft(text, what).not.toMatch(/No such endpoint|Unknown path/);
      if (example !== undefined) {
        if (/\/(exec(\/sync)?|debug)$/.test(template)) {
          // Desktop-only: the browser session's refusal names the kind, after the body was accepted.
          expect.soft(streamed ? 200 : res.status, what).toBe(streamed ? 200 : 400);
          if (!streamed) expect.soft(text, what).toMatch(/desktop/);
        } else {
          expect.soft(res.status, what).toBe(template === "/credentials" && method === "POST" ? 201 : 200);
          if (!streamed && template.startsWith("/computers/{id}/"))
            expect.soft(JSON.parse(text).status, what).toBe("success");
        }
      }
      // The create example made a session of its own.
      if (template === "/computers" && method === "POST") await api("DELETE", `/computers/${JSON.parse(text).id}`);
      checked.push(`${method} ${template}`);
    }
    expect(checked.length).toBeGreaterThan(30);
  }, 240_000);
});
