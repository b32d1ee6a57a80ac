// POST /agent/tasks/{id}/handoff {reason}: the task waits for a person (docs/agent-tasks.md "Hand-off to a person").
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { parseHandoff } from "@/lib/agent/schema";
import { handoffTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal, params }) =>
  Response.json(
    await handoffTask({
      caller: principal,
      id: params.id!,
      ...parseHandoff(await readJson(req)),
      origin: publicOrigin(req.headers),
    }),
  ),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
