// POST /agent/tasks/{id}/messages {message} (the SDK's agent.tasks.injectMessage): joins the next model call.
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { parseBody } from "@/lib/api/request";
import { injectMessageSchema } from "@/lib/agent/schema";
import { injectMessage } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal, params }) =>
  Response.json(
    await injectMessage({ caller: principal, id: params.id!, ...(await parseBody(req, injectMessageSchema)) }),
  ),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
