// GET /agent/tasks/{id}/stream: follow a task's events (the SDK's agent.tasks.streamUpdates), resumable
// with Last-Event-ID or ?from=<seq> (docs/agent-tasks.md "Streaming").
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { followTask } from "@/lib/agent/stream";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ req, principal, params }) =>
  followTask({
    caller: principal,
    id: params.id!,
    from: new URL(req.url).searchParams.get("from"),
    lastEventId: req.headers.get("last-event-id"),
    signal: req.signal,
  }),
);

const wrongMethod = methodNotAllowed(["GET"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
