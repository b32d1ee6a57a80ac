// @needs nothing
// MCP's tools advertise the limits of the services they call: each field a tool passes on is listed (tools/list,
// the JSON Schema an MCP client reads) with the same bounds as the service's own schema documents, so a tool
// never offers what the service refuses nor refuses what it takes. No tool is called: only the lists are read.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { taskStartSchema } from "@/lib/agent/schema";
import { ACTION_SCHEMAS, createBodySchema } from "@/lib/computers/session-schemas";
import { uploadFieldsSchema } from "@/lib/computers/session-files";
import { registerTools } from "@/lib/mcp/tools";

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; items?: JsonSchema };

/** The keys that bound a value; descriptions, defaults and the draft's spelling aside. */
const LIMITS = ["type", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern", "enum"];
const limitsOf = (schema: JsonSchema | undefined): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const key of LIMITS) if (schema?.[key] !== undefined) out[key] = schema[key];
  if (schema?.items) out.items = limitsOf(schema.items);
  return out;
};
const serviceField = (schema: z.ZodType, field: string) =>
  (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema).properties?.[field];
/** A nullable object's object (`display: {…} | null`). */
const objectOf = (schema: JsonSchema | undefined) =>
  ((schema?.anyOf as JsonSchema[] | undefined) ?? [schema]).find((branch) => branch?.type === "object");

let client: Client;
const tools = new Map<string, JsonSchema>();
const toolField = (tool: string, field: string) => {
  const schema = tools.get(tool)?.properties?.[field];
  if (!schema) throw new Error(`${tool} lists no field ${field}`);
  return schema;
};

beforeAll(async () => {
  const server = new McpServer({ name: "cabin", version: "test" }, { capabilities: { tools: {} } });
  registerTools(server, {
    principal: { organizationId: "org_test", apiKeyId: null } as never,
    origin: "http://127.0.0.1",
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "schema-test", version: "1" });
  await client.connect(clientSide);
  for (const tool of (await client.listTools()).tools) tools.set(tool.name, tool.inputSchema as JsonSchema);
});

afterAll(async () => {
  await client?.close();
});

describe("MCP tool schemas agree with the services' own", () => {
  const cases: [tool: string, field: string, service: () => JsonSchema | undefined][] = [
    ["run_agent_task", "instruction", () => serviceField(taskStartSchema(), "instruction")],
    ["run_agent_task", "kind", () => serviceField(taskStartSchema(), "kind")],
    ["run_agent_task", "max_steps", () => serviceField(taskStartSchema(), "max_steps")],
    ["run_agent_task", "start_url", () => serviceField(taskStartSchema(), "start_url")],
    ["run_agent_task", "session_id", () => serviceField(taskStartSchema(), "computer_id")],
    ["create_session", "width", () => objectOf(serviceField(createBodySchema, "display"))?.properties?.width],
    ["create_session", "height", () => objectOf(serviceField(createBodySchema, "display"))?.properties?.height],
    ["create_session", "timeout_seconds", () => serviceField(createBodySchema, "timeout_seconds")],
    ["navigate", "url", () => serviceField(ACTION_SCHEMAS.go_to_url, "url")],
    ["click", "x", () => serviceField(ACTION_SCHEMAS.click, "x")],
    ["click", "y", () => serviceField(ACTION_SCHEMAS.click, "y")],
    ["click", "button", () => serviceField(ACTION_SCHEMAS.click, "button")],
    ["type_text", "text", () => serviceField(ACTION_SCHEMAS.type, "text")],
    ["fill_credentials", "name", () => serviceField(ACTION_SCHEMAS.fill_credentials, "name")],
    ["key_press", "keys", () => serviceField(ACTION_SCHEMAS.keypress, "keys")],
    ["scroll", "dy", () => serviceField(ACTION_SCHEMAS.scroll, "dy")],
    ["scroll", "x", () => serviceField(ACTION_SCHEMAS.scroll, "x")],
    ["tabs", "tab_id", () => serviceField(ACTION_SCHEMAS.switch_tab, "tab_id")],
    ["tabs", "url", () => serviceField(ACTION_SCHEMAS.new_tab, "url")],
    ["upload_file", "name", () => serviceField(uploadFieldsSchema, "name")],
    ["upload_file", "mime_type", () => serviceField(uploadFieldsSchema, "mime_type")],
    ["upload_file", "path", () => serviceField(uploadFieldsSchema, "path")],
  ];

  it.each(cases)("%s.%s has the service's bounds", (tool, field, service) => {
    const expected = limitsOf(service());
    expect(Object.keys(expected).length, `the service schema bounds ${tool}.${field}`).toBeGreaterThan(0);
    expect(limitsOf(toolField(tool, field))).toEqual(expected);
  });

  it("names the limits the services apply (a start's steps, a display's size, a typed text)", () => {
    expect(toolField("run_agent_task", "max_steps").maximum).toBe(taskStartSchema().shape.max_steps.unwrap().maxValue);
    expect([toolField("create_session", "width").minimum, toolField("create_session", "width").maximum]).toEqual([
      320, 3840,
    ]);
    expect(toolField("type_text", "text").maxLength).toBe(100_000);
    expect(toolField("click", "x").maximum).toBe(100_000);
  });
});
