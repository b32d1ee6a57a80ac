// POST /agent/tasks (start; the SDK's agent.tasks.start) and GET /agent/tasks (list, newest first).
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { parseTaskStart } from "@/lib/agent/schema";
import { listTasks, startTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal }) => {
  const start = parseTaskStart(await readJson(req));
  return Response.json(await startTask({ caller: principal, start, origin: publicOrigin(req.headers) }), {
    status: 201,
  });
});

export const GET = withApiKey("api", async ({ req, principal }) =>
  Response.json(
    await listTasks({ caller: principal, limit: Number(new URL(req.url).searchParams.get("limit") ?? 50) || 50 }),
  ),
);

const wrongMethod = methodNotAllowed(["GET", "POST"]);
export { wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
