// The /computers operations on a running session's tabs, shell and streams (tabs, exec,
// screencast, events, stored screenshots), for the OpenAPI document; `computersPaths`
// (lib/routes/openapi/computers.ts) adds the session and action operations.
import { createTabBody, execBody, settingsQuery } from "@/lib/computers/session-schemas";
import { jsonSchema, ok, operation, pathParam, queryParams, ref, requestBody } from "@/lib/routes/openapi/build";

const id = pathParam("id", "Session id (comp_<hex>)", "comp_0123456789abcdef");
const tabId = pathParam("tab_id", "Tab id (tab_main or tab_<id>)", "tab_main");

export function computersTabAndStreamPaths(): Record<string, Record<string, unknown>> {
  const streamParams = queryParams(jsonSchema(settingsQuery));
  return {
    "/computers/{id}/tabs": {
      get: operation(
        "computers",
        "listTabs",
        {
          tag: "Tabs",
          summary: "List tabs (browser)",
          parameters: [id],
          responses: { "200": ok("Tabs", ref("TabList")) },
        },
        ["400", "401", "404", "409"],
      ),
      post: operation("computers", "createTab", {
        tag: "Tabs",
        summary: "Open a tab (browser); it becomes the main tab",
        parameters: [id],
        requestBody: requestBody(jsonSchema(createTabBody), false, { url: "about:blank" }),
        responses: { "200": ok("The new tab's id", ref("TabCreated")) },
      }),
    },
    "/computers/{id}/tabs/{tab_id}": {
      delete: operation(
        "computers",
        "closeTab",
        {
          tag: "Tabs",
          summary: "Close a tab (not the last one: 409)",
          parameters: [id, tabId],
          responses: { "200": ok("Closed", ref("TabClosed")) },
        },
        ["400", "401", "404", "409"],
      ),
    },
    "/computers/{id}/tabs/{tab_id}/switch": {
      post: operation(
        "computers",
        "switchTab",
        {
          tag: "Tabs",
          summary: "Make a tab the active one",
          parameters: [id, tabId],
          responses: { "200": ok("Switched", ref("TabSwitched")) },
        },
        ["400", "401", "404", "409"],
      ),
    },
    "/computers/{id}/exec/sync": {
      post: operation("computers", "execSync", {
        tag: "Exec",
        summary: "Run a shell command in a desktop and wait for it",
        parameters: [id],
        requestBody: requestBody(jsonSchema(execBody), true, { command: "echo hello", timeout_seconds: 10 }),
        responses: { "200": ok("Output and exit code", ref("ExecResult")) },
      }),
    },
    "/computers/{id}/exec": {
      post: operation(
        "computers",
        "execStream",
        {
          tag: "Exec",
          summary: "Run a shell command in a desktop, output streamed as NDJSON",
          description:
            'Always 200 once authenticated: a bad body or setup failure is one `{type: "error"}` line. A client ' +
            "disconnect kills the command.",
          parameters: [id],
          requestBody: requestBody(jsonSchema(execBody), true, { command: "echo hello" }),
          responses: { "200": ok("NDJSON lines", ref("ExecLine"), "application/x-ndjson") },
        },
        ["401"],
      ),
    },
    "/computers/{id}/screencast": {
      get: operation(
        "computers",
        "screencast",
        {
          tag: "Streams",
          summary: "Live view as Server-Sent Events (JPEG frames)",
          description:
            "Authenticated by the API key or by the `token` of `endpoints.screencast` (EventSource sends no headers).",
          parameters: [id, ...streamParams],
          security: [{ bearerAuth: [] }, { capabilityToken: [] }],
          responses: { "200": ok("SSE stream", ref("ScreencastEvent"), "text/event-stream") },
        },
        ["400", "401", "404", "409"],
      ),
    },
    "/computers/{id}/events": {
      get: operation(
        "computers",
        "sessionEvents",
        {
          tag: "Streams",
          summary: "Action requests/responses and exec output as Server-Sent Events",
          parameters: [id],
          responses: { "200": ok("SSE stream", ref("SessionEvent"), "text/event-stream") },
        },
        ["401", "404", "409"],
      ),
    },
    "/computers/{id}/screenshots/{name}": {
      get: operation(
        "computers",
        "screenshotFile",
        {
          tag: "Streams",
          summary: "A screenshot file (the screenshot_url capability URL)",
          parameters: [
            id,
            pathParam("name", "File name from screenshot_url", "shot.png"),
            { name: "token", in: "query", required: false, schema: { type: "string" } },
          ],
          security: [{ capabilityToken: [] }, { bearerAuth: [] }],
          responses: { "200": { description: "The image", content: { "image/png": {}, "image/jpeg": {} } } },
        },
        ["401", "404"],
      ),
    },
  };
}
