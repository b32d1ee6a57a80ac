// POST /agent/tasks/{id}/resume (agent.tasks.resume).
import { methodNotAllowed, withApiKey } from "@/lib/api/handlers";
import { resumeTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ principal, params }) =>
  Response.json(await resumeTask({ caller: principal, id: params.id! })),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
