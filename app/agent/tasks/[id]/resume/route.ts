// POST /agent/tasks/{id}/resume {note?} (agent.tasks.resume): from a pause or a hand-off to a person.
import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { readJson } from "@/lib/api/request";
import { parseResume } from "@/lib/agent/schema";
import { resumeTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal, params }) =>
  Response.json(
    await resumeTask({
      caller: principal,
      id: params.id!,
      ...parseResume(await readJson(req, { optional: true })),
    }),
  ),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
