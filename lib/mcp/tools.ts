// The MCP server's tools (docs/mcp.md): sessions, actions, screenshots, tabs,
// exec and agent tasks, each a thin call into the same domain functions the
// /computers and /agent routes call, scoped to the API key's organization.
// Inputs are zod shapes (the SDK validates them and lists them as JSON
// Schema), taken from the services' own schemas where a tool passes a field
// on (`createFields`, `execFields`, `ACTION_SCHEMAS`), so a tool advertises the
// limits the service applies, and its actions are typed (`ActionInput`); a
// refusal (AppError) comes back as an MCP tool error, never a crash.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  actOn,
  closeTab,
  listTabs,
  openTab,
  runCommand,
  switchTab,
  type ActionInput,
} from "@/lib/computers/session-actions";
import { ACTION_SCHEMAS, createFields, execFields } from "@/lib/computers/session-schemas";
import { createSession, deleteComputer, listSessions } from "@/lib/computers/service";
import { randomHex } from "@/lib/random-id";
import { profileRefSchema } from "@/lib/computers/session-profiles";
import { errorResult, jsonResult as json, toolResult, type McpCaller } from "@/lib/mcp/result";
import { registerTaskTool } from "@/lib/mcp/task-tool";
import { registerFileTools } from "@/lib/mcp/file-tools";
import { registerReplayTool } from "@/lib/mcp/replay-tool";

const sessionId = z.string().min(1).describe("The session id (comp_…) from create_session or list_sessions");
const requestId = () => `req_mcp_${randomHex(8)}`;

/** The action fields the tools offer, each the action schema's own (before its aliases are settled). */
const click = ACTION_SCHEMAS.click.in.shape;
const scroll = ACTION_SCHEMAS.scroll.in.shape;
export const actionToolFields = {
  url: ACTION_SCHEMAS.go_to_url.shape.url,
  x: click.x,
  y: click.y,
  button: click.button,
  text: ACTION_SCHEMAS.type.shape.text,
  credentialName: ACTION_SCHEMAS.fill_credentials.shape.name,
  keys: ACTION_SCHEMAS.keypress.in.shape.keys.unwrap(),
  dx: scroll.dx,
  dy: scroll.dy.unwrap(),
  scrollX: scroll.x,
  scrollY: scroll.y,
  tabId: ACTION_SCHEMAS.switch_tab.shape.tab_id,
  tabUrl: ACTION_SCHEMAS.new_tab.shape.url,
};

export function registerTools(server: McpServer, caller: McpCaller): void {
  const call = (id: string) => ({ principal: caller.principal, id, requestId: requestId(), baseUrl: caller.origin });
  /** One action through /execute's code path; a failed action is an error result. */
  const act = (id: string, action: ActionInput) =>
    toolResult(async () => {
      const { result } = await actOn({ ...call(id), action });
      return result.status === "error" ? errorResult(`action failed: ${result.error_message}`) : json(result);
    });

  server.registerTool(
    "create_session",
    {
      description:
        "Create a remote computer: a browser (Chromium with tabs) or a Linux desktop. Returns the session object.",
      inputSchema: {
        kind: createFields.kind.describe("browser (default) or desktop"),
        width: createFields.width.describe("Display width in pixels (default 1280)"),
        height: createFields.height.describe("Display height in pixels (default 720)"),
        timeout_seconds: createFields.timeout_seconds.describe("Maximum lifetime in seconds"),
        profile: profileRefSchema
          .optional()
          .describe("A named browser profile to start from; save_changes writes the session's changes back"),
      },
    },
    (args) =>
      toolResult(async () =>
        json(
          await createSession({
            principal: caller.principal,
            origin: caller.origin,
            body: {
              ...(args.kind ? { kind: args.kind } : {}),
              ...(args.width || args.height
                ? { display: { width: args.width ?? 1280, height: args.height ?? 720 } }
                : {}),
              ...(args.timeout_seconds ? { timeout_seconds: args.timeout_seconds } : {}),
              ...(args.profile ? { profile: args.profile } : {}),
            },
          }),
        ),
      ),
  );

  server.registerTool(
    "list_sessions",
    {
      description: "List the organization's live sessions (id, kind, status, created_at).",
      inputSchema: {},
    },
    () => toolResult(async () => json(await listSessions({ principal: caller.principal, type: "live" }))),
  );

  server.registerTool(
    "end_session",
    { description: "End a session now.", inputSchema: { session_id: sessionId } },
    (args) =>
      toolResult(async () => {
        await deleteComputer({ principal: caller.principal, id: args.session_id });
        return json({ session_id: args.session_id, status: "terminated" });
      }),
  );

  server.registerTool(
    "navigate",
    {
      description: "Open a URL in the session's browser (on a desktop: its own Chromium).",
      inputSchema: { session_id: sessionId, url: actionToolFields.url.describe("An absolute http(s) URL") },
    },
    (args) => act(args.session_id, { type: "go_to_url", url: args.url }),
  );

  server.registerTool(
    "click",
    {
      description: "Click at a point of the screenshot, in pixels.",
      inputSchema: {
        session_id: sessionId,
        x: actionToolFields.x,
        y: actionToolFields.y,
        button: actionToolFields.button,
        double: z.boolean().optional().describe("A double click"),
      },
    },
    (args) =>
      act(
        args.session_id,
        args.double
          ? { type: "double_click", x: args.x, y: args.y }
          : { type: "click", x: args.x, y: args.y, button: args.button },
      ),
  );

  server.registerTool(
    "type_text",
    {
      description: "Type text into whatever has the keyboard focus.",
      inputSchema: { session_id: sessionId, text: actionToolFields.text },
    },
    (args) => act(args.session_id, { type: "type", text: args.text }),
  );

  server.registerTool(
    "fill_credentials",
    {
      description:
        "Fill the login form of the current page with a stored credential (the vault, docs/credentials.md), by name: " +
        "user name, password and a one-time code when the form asks for one. Only on the credential's domain; " +
        "the values are never returned.",
      inputSchema: { session_id: sessionId, name: actionToolFields.credentialName.describe("The credential's name") },
    },
    (args) => act(args.session_id, { type: "fill_credentials", name: args.name }),
  );

  server.registerTool(
    "key_press",
    {
      description: 'Press keys together, e.g. ["Enter"] or ["Control", "a"].',
      inputSchema: { session_id: sessionId, keys: actionToolFields.keys },
    },
    (args) => act(args.session_id, { type: "keypress", keys: args.keys }),
  );

  server.registerTool(
    "scroll",
    {
      description: "Scroll by dx, dy pixels with the pointer at x, y.",
      inputSchema: {
        session_id: sessionId,
        dx: actionToolFields.dx,
        dy: actionToolFields.dy,
        x: actionToolFields.scrollX,
        y: actionToolFields.scrollY,
      },
    },
    (args) => act(args.session_id, { type: "scroll", dx: args.dx ?? 0, dy: args.dy, x: args.x, y: args.y }),
  );

  server.registerTool(
    "screenshot",
    {
      description: "A screenshot of the session's screen, as an image.",
      inputSchema: { session_id: sessionId },
    },
    (args) =>
      toolResult(async () => {
        const { result } = await actOn({ ...call(args.session_id), action: { type: "screenshot", base64: true } });
        const shot = result.result as { screenshot?: string; mime_type?: string } | undefined;
        if (result.status === "error" || !shot?.screenshot)
          return errorResult(`screenshot failed: ${result.error_message}`);
        return { content: [{ type: "image", data: shot.screenshot, mimeType: shot.mime_type ?? "image/png" }] };
      }),
  );

  server.registerTool(
    "tabs",
    {
      description: "Browser tabs: list them, open one (url), switch to one or close one (tab_id).",
      inputSchema: {
        session_id: sessionId,
        action: z.enum(["list", "new", "switch", "close"]),
        tab_id: actionToolFields.tabId.optional(),
        url: actionToolFields.tabUrl,
      },
    },
    (args) =>
      toolResult(async () => {
        const base = call(args.session_id);
        if (args.action === "list") return json(await listTabs(base));
        if (args.action === "new") return json(await openTab({ ...base, url: args.url }));
        if (!args.tab_id) return errorResult(`tab_id is required to ${args.action} a tab`);
        return json(
          args.action === "switch"
            ? await switchTab({ ...base, tabId: args.tab_id })
            : await closeTab({ ...base, tabId: args.tab_id }),
        );
      }),
  );

  server.registerTool(
    "exec",
    {
      description: "Run a shell command on a desktop session; returns stdout, stderr and the exit code.",
      inputSchema: {
        session_id: sessionId,
        command: execFields.command,
        cwd: execFields.cwd,
        timeout_seconds: execFields.timeout_seconds,
      },
    },
    (args) =>
      toolResult(async () =>
        json(
          await runCommand({
            principal: caller.principal,
            id: args.session_id,
            requestId: requestId(),
            command: { command: args.command, cwd: args.cwd, timeout_seconds: args.timeout_seconds },
          }),
        ),
      ),
  );

  registerTaskTool(server, caller);
  registerFileTools(server, caller);
  registerReplayTool(server, caller);
}
