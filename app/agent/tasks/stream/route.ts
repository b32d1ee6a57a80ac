// POST /agent/tasks/stream: start a task and follow it as Server-Sent Events (the SDK's agent.tasks.startStream).
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { forwardByBody } from "@/lib/cluster/forward-by-body";
import { parseTaskStart } from "@/lib/agent/schema";
import { streamTask } from "@/lib/agent/stream";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal }) => {
  const body = await readJson(req);
  // The SSE stream comes from the session's node when another node runs it (forwardByBody).
  const elsewhere = await forwardByBody({ req, body, caller: { ...principal, member: null } });
  return (
    elsewhere ??
    streamTask({
      caller: principal,
      start: parseTaskStart(body),
      origin: publicOrigin(req.headers),
      signal: req.signal,
    })
  );
});

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
