// POST /agent/tasks/{id}/stop (a Cabin addition: ends the task now).
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { stopTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ principal, params }) =>
  Response.json(await stopTask({ caller: principal, id: params.id! })),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
