// POST /agent/tasks/{id}/pause (agent.tasks.pause).
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { pauseTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ principal, params }) =>
  Response.json(await pauseTask({ caller: principal, id: params.id! })),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
