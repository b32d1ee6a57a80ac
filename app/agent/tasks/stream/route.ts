// POST /agent/tasks/stream: start a task and follow it as Server-Sent Events (the SDK's agent.tasks.startStream).
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { parseTaskStart } from "@/lib/agent/schema";
import { streamTask } from "@/lib/agent/stream";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal }) => {
  const start = parseTaskStart(await readJson(req));
  return streamTask({ caller: principal, start, origin: publicOrigin(req.headers), signal: req.signal });
});

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
