// The /computers operations of the OpenAPI document. Request bodies and queries
// come from the zod schemas the routes validate with (createBodySchema,
// ACTION_SCHEMAS, executeBody/batchBody; tabs, exec and streams in computers-streams.ts);
// answers from lib/routes/openapi/responses.ts.
import { z } from "zod";
import {
  ACTION_SCHEMAS,
  type ActionType,
  batchBody,
  executeBody,
  NAMED_ACTION_TYPES,
  createBodySchema,
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
} from "@/lib/computers/session-schemas";
import { computersTabAndStreamPaths } from "@/lib/routes/openapi/computers-streams";
import {
  jsonSchema,
  ok,
  operation,
  pathParam,
  ref,
  requestBody,
  withoutProperty,
  type JsonSchema,
} from "@/lib/routes/openapi/build";

const id = pathParam("id", "Session id (comp_<hex>)", "comp_0123456789abcdef");

// Examples a client can send as they are (the document test sends them to a live session).
const ACTION_EXAMPLES: Partial<Record<ActionType, Record<string, unknown>>> = {
  click: { x: 100, y: 100 },
  double_click: { x: 100, y: 100 },
  right_click: { x: 100, y: 100 },
  drag: { x1: 10, y1: 10, x2: 50, y2: 50 },
  type: { text: "hello" },
  keypress: { keys: ["Control", "a"] },
  key_down: { key: "Shift" },
  key_up: { key: "Shift" },
  mouse_down: { x: 10, y: 10 },
  mouse_up: { x: 10, y: 10 },
  scroll: { dx: 0, dy: 200 },
  wait: { ms: 10 },
  screenshot: { base64: false },
  go_to_url: { url: "about:blank" },
  get_html_content: {},
  set_viewport: { width: 1280, height: 720 },
  list_tabs: {},
  change_proxy: { proxy_url: null },
  move: { x: 100, y: 100 },
  point_and_type: { x: 100, y: 100, text: "hello" },
  // Desktop sessions only (a browser session has no shell): the document test expects the 400 naming the kind.
  debug: { command: "echo hello", timeout_seconds: 120, max_output_length: 65536 },
};

/** Component schemas of this surface: each action type, and the action union. */
export function computersComponents(): Record<string, JsonSchema> {
  const actions = Object.fromEntries(
    (Object.keys(ACTION_SCHEMAS) as ActionType[]).map((type) => [`Action.${type}`, jsonSchema(ACTION_SCHEMAS[type])]),
  );
  return {
    ...actions,
    Action: { anyOf: Object.keys(actions).map(ref), description: "One action of the generic vocabulary, by `type`" },
    CreateComputer: jsonSchema(createBodySchema),
  };
}

const actionResultOk = { "200": ok("ActionResult", ref("ActionResult")) };

function namedActionPaths() {
  return Object.fromEntries(
    Object.entries(NAMED_ACTION_TYPES).map(([path, type]) => {
      const example = ACTION_EXAMPLES[type];
      const body = withoutProperty(jsonSchema(ACTION_SCHEMAS[type]), "type");
      return [
        `/computers/{id}/${path}`,
        {
          post: operation("computers", `action_${path.replace(/-/g, "_")}`, {
            tag: "Actions",
            summary: `Run a ${type} action`,
            description:
              `The same as POST /computers/{id}/execute with \`{action: {type: "${type}", …}}\`: the body is the ` +
              `action's fields.`,
            parameters: [id],
            requestBody: requestBody(body, !["screenshot", "get_html_content"].includes(type), example),
            responses: actionResultOk,
          }),
        },
      ];
    }),
  );
}

export function computersPaths(): Record<string, Record<string, unknown>> {
  const executeSchema = jsonSchema(executeBody.extend({ action: z.union(Object.values(ACTION_SCHEMAS)) }));
  const batchSchema = jsonSchema(
    batchBody.extend({
      actions: z
        .array(z.union(Object.values(ACTION_SCHEMAS)))
        .min(1)
        .max(100),
    }),
  );
  return {
    "/computers": {
      get: operation(
        "computers",
        "listComputers",
        {
          tag: "Sessions",
          summary: "List the organization's sessions",
          description:
            "Newest first. Without `limit` and `cursor` the answer holds every session; with either, one page, " +
            'and the next one is named in `x-next-cursor` and a `Link: <...>; rel="next"` header (absent on the ' +
            "last page).",
          parameters: [
            {
              name: "type",
              in: "query",
              required: false,
              schema: { type: "string", enum: ["live", "persistent"] },
              description: "live: not terminated; persistent: usable as environment_id",
            },
            {
              name: "limit",
              in: "query",
              required: false,
              schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT },
              description: "Page size; turns pagination on",
            },
            {
              name: "cursor",
              in: "query",
              required: false,
              schema: { type: "string" },
              description: "The previous page's x-next-cursor, as it was",
            },
          ],
          responses: {
            "200": ok("Sessions (id, kind, status, created_at)", { type: "array", items: ref("SessionListItem") }),
          },
        },
        ["400", "401", "429"],
      ),
      post: operation(
        "computers",
        "createComputer",
        {
          tag: "Sessions",
          summary: "Create a browser or desktop session",
          description:
            "Unknown fields are a 400 naming them. `max_lifetime_seconds`/`idle_timeout_enabled` are aliases of " +
            "`timeout_seconds`/`auto_kill` (the new name wins).",
          requestBody: requestBody(ref("CreateComputer"), false, { kind: "browser", inactivity_timeout_seconds: 120 }),
          responses: { "200": ok("The new session (status ready)", ref("Session")) },
        },
        ["400", "401", "413", "429"],
      ),
    },
    "/computers/{id}": {
      get: operation(
        "computers",
        "getComputer",
        {
          tag: "Sessions",
          summary: "Read one session",
          parameters: [id],
          responses: { "200": ok("The session", ref("Session")) },
        },
        ["401", "404"],
      ),
      delete: operation(
        "computers",
        "deleteComputer",
        {
          tag: "Sessions",
          summary: "Terminate a session now",
          description: "Saves state when persistent; idempotent on terminated sessions.",
          parameters: [id],
          responses: { "204": { description: "Terminated" } },
        },
        ["401", "404"],
      ),
    },
    "/computers/{id}/status": {
      get: operation(
        "computers",
        "getComputerStatus",
        {
          tag: "Sessions",
          summary: "Read one session (cheap, for polling)",
          parameters: [id],
          responses: { "200": ok("The session", ref("Session")) },
        },
        ["401", "404"],
      ),
    },
    "/computers/{id}/keepalive": {
      post: operation(
        "computers",
        "keepAlive",
        {
          tag: "Sessions",
          summary: "Count as activity (moves idle_expires_at)",
          parameters: [id],
          responses: { "200": ok("The session", ref("Session")) },
        },
        ["401", "404", "409"],
      ),
    },
    "/computers/{id}/execute": {
      post: operation("computers", "executeAction", {
        tag: "Actions",
        summary: "Run one action of the generic vocabulary",
        parameters: [id],
        requestBody: requestBody(executeSchema, true, { action: { type: "click", x: 100, y: 100 } }),
        responses: actionResultOk,
      }),
    },
    "/computers/{id}/batch": {
      post: operation("computers", "executeBatch", {
        tag: "Actions",
        summary: "Run actions in order, stopping at the first failure",
        parameters: [id],
        requestBody: requestBody(batchSchema, true, {
          actions: [
            { type: "wait", ms: 10 },
            { type: "screenshot", base64: false },
          ],
        }),
        responses: { "200": ok("The batch's results", ref("BatchResult")) },
      }),
    },
    ...namedActionPaths(),
    ...computersTabAndStreamPaths(),
  };
}
