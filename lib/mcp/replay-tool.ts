// The MCP tool for replays (docs/replays.md, docs/mcp.md): the recording links of a
// session or of an agent task, through the same domain functions as GET
// /computers/{id}/replays and GET /agent/tasks/{id}. A link is downloaded with the API key.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { getTask } from "@/lib/agent/service";
import { listReplays } from "@/lib/computers/session-replays";
import { jsonResult as json, toolResult, type McpCaller } from "@/lib/mcp/result";

export function registerReplayTool(server: McpServer, caller: McpCaller): void {
  server.registerTool(
    "get_replay",
    {
      description:
        "The video recordings (MP4 replays) of a session or of an agent task: each replay's status (recording, " +
        "processing, ready, failed), length and replay_view_url, the link that downloads it with your API key. " +
        "Give session_id or task_id.",
      inputSchema: {
        session_id: z.string().min(1).optional().describe("A session id (comp_…): all of its replays"),
        task_id: z.string().min(1).optional().describe("An agent task id (task_…): the replay of its session"),
      },
    },
    (args) =>
      toolResult(async () => {
        if (!args.session_id === !args.task_id)
          throw new AppError("invalid_request", "give exactly one of session_id and task_id", { param: "session_id" });
        const who = { organizationId: caller.principal.organizationId };
        if (args.session_id)
          return json(await listReplays({ caller: who, id: args.session_id, origin: caller.origin }));
        const task = await getTask({ caller: caller.principal, id: args.task_id!, origin: caller.origin });
        if (!task.replay_id || !task.computer_id) return json({ task_id: task.task_id, replay_id: null, data: [] });
        const { data } = await listReplays({ caller: who, id: task.computer_id, origin: caller.origin });
        return json({
          task_id: task.task_id,
          replay_id: task.replay_id,
          data: data.filter((r) => r.replay_id === task.replay_id),
        });
      }),
  );
}
