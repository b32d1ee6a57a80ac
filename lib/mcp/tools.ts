// The MCP server's tools (docs/mcp.md): sessions, actions, screenshots, tabs,
// exec and agent tasks, each a thin call into the same domain functions the
// /computers and /agent routes call, scoped to the API key's organization.
// Inputs are zod shapes (the SDK validates them and lists them as JSON
// Schema); a refusal (AppError) comes back as an MCP tool error, never a crash.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { createTab, closeTab, executeAction, listTabs, switchTab } from "@/lib/computers/actions/action-service";
import { execSync } from "@/lib/computers/desktop/exec-service";
import { createComputer, deleteComputer, listComputers } from "@/lib/computers/service";
import { randomHex } from "@/lib/random-id";
import { errorResult, jsonResult as json, toolResult, type McpCaller } from "@/lib/mcp/result";
import { registerTaskTool } from "@/lib/mcp/task-tool";
import { registerFileTools } from "@/lib/mcp/file-tools";
import { registerReplayTool } from "@/lib/mcp/replay-tool";

const sessionId = z.string().min(1).describe("The session id (comp_…) from create_session or list_sessions");
const requestId = () => `req_mcp_${randomHex(8)}`;

export function registerTools(server: McpServer, caller: McpCaller): void {
  const call = (id: string) => ({ principal: caller.principal, id, requestId: requestId(), baseUrl: caller.origin });
  /** One action through /execute's code path; a failed action is an error result. */
  const act = (id: string, action: Record<string, unknown>) =>
    toolResult(async () => {
      const result = await executeAction({ ...call(id), body: { action } });
      return result.status === "error" ? errorResult(`action failed: ${result.error_message}`) : json(result);
    });

  server.registerTool(
    "create_session",
    {
      description:
        "Create a remote computer: a browser (Chromium with tabs) or a Linux desktop. Returns the session object.",
      inputSchema: {
        kind: z.enum(["browser", "desktop"]).optional().describe("browser (default) or desktop"),
        width: z.number().int().min(200).max(3840).optional().describe("Display width in pixels (default 1280)"),
        height: z.number().int().min(200).max(3840).optional().describe("Display height in pixels (default 720)"),
        timeout_seconds: z.number().int().min(10).optional().describe("Maximum lifetime in seconds"),
      },
    },
    (args) =>
      toolResult(async () =>
        json(
          await createComputer({
            principal: caller.principal,
            origin: caller.origin,
            body: {
              ...(args.kind ? { kind: args.kind } : {}),
              ...(args.width || args.height
                ? { display: { width: args.width ?? 1280, height: args.height ?? 720 } }
                : {}),
              ...(args.timeout_seconds ? { timeout_seconds: args.timeout_seconds } : {}),
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
    () =>
      toolResult(async () =>
        json(
          (
            await listComputers({
              principal: caller.principal,
              query: new URLSearchParams({ type: "live" }),
              origin: caller.origin,
            })
          ).items,
        ),
      ),
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
      inputSchema: { session_id: sessionId, url: z.string().url().describe("An absolute http(s) URL") },
    },
    (args) => act(args.session_id, { type: "go_to_url", url: args.url }),
  );

  server.registerTool(
    "click",
    {
      description: "Click at a point of the screenshot, in pixels.",
      inputSchema: {
        session_id: sessionId,
        x: z.number().min(0),
        y: z.number().min(0),
        button: z.enum(["left", "right", "middle"]).optional(),
        double: z.boolean().optional().describe("A double click"),
      },
    },
    (args) =>
      act(
        args.session_id,
        args.double
          ? { type: "double_click", x: args.x, y: args.y }
          : { type: "click", x: args.x, y: args.y, button: args.button ?? "left" },
      ),
  );

  server.registerTool(
    "type_text",
    {
      description: "Type text into whatever has the keyboard focus.",
      inputSchema: { session_id: sessionId, text: z.string().min(1).max(100_000) },
    },
    (args) => act(args.session_id, { type: "type", text: args.text }),
  );

  server.registerTool(
    "key_press",
    {
      description: 'Press keys together, e.g. ["Enter"] or ["Control", "a"].',
      inputSchema: { session_id: sessionId, keys: z.array(z.string().min(1).max(32)).min(1).max(8) },
    },
    (args) => act(args.session_id, { type: "keypress", keys: args.keys }),
  );

  server.registerTool(
    "scroll",
    {
      description: "Scroll by dx, dy pixels with the pointer at x, y.",
      inputSchema: {
        session_id: sessionId,
        dx: z.number().default(0),
        dy: z.number(),
        x: z.number().min(0).optional(),
        y: z.number().min(0).optional(),
      },
    },
    (args) =>
      act(args.session_id, {
        type: "scroll",
        dx: args.dx,
        dy: args.dy,
        ...(args.x === undefined ? {} : { x: args.x }),
        ...(args.y === undefined ? {} : { y: args.y }),
      }),
  );

  server.registerTool(
    "screenshot",
    {
      description: "A screenshot of the session's screen, as an image.",
      inputSchema: { session_id: sessionId },
    },
    (args) =>
      toolResult(async () => {
        const result = await executeAction({
          ...call(args.session_id),
          body: { action: { type: "screenshot", base64: true } },
        });
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
        tab_id: z.string().optional(),
        url: z.string().url().optional(),
      },
    },
    (args) =>
      toolResult(async () => {
        const base = call(args.session_id);
        if (args.action === "list") return json(await listTabs(base));
        if (args.action === "new") return json(await createTab({ ...base, body: args.url ? { url: args.url } : {} }));
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
        command: z.string().min(1),
        cwd: z.string().optional(),
        timeout_seconds: z.number().int().min(1).max(3600).optional(),
      },
    },
    (args) =>
      toolResult(async () =>
        json(
          await execSync({
            principal: caller.principal,
            id: args.session_id,
            requestId: requestId(),
            body: {
              command: args.command,
              ...(args.cwd ? { cwd: args.cwd } : {}),
              ...(args.timeout_seconds ? { timeout_seconds: args.timeout_seconds } : {}),
            },
          }),
        ),
      ),
  );

  registerTaskTool(server, caller);
  registerFileTools(server, caller);
  registerReplayTool(server, caller);
}
