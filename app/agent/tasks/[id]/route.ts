// GET /agent/tasks/{id}: status, steps, usage and result (the SDK's agent.tasks.retrieveStatus).
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { getTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ req, principal, params }) =>
  Response.json(await getTask({ caller: principal, id: params.id!, origin: publicOrigin(req.headers) })),
);

const wrongMethod = methodNotAllowed(["GET"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
