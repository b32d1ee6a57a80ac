// POST /agent/tasks/{id}/handoff/done?token=… {note?}: the take-over page's Done. The link's token stands
// in for the API key (it grants this one hand-off, docs/agent-tasks.md "Hand-off to a person").
import { methodNotAllowed, withPublic } from "@/lib/routes/handlers";
import { readJson } from "@/lib/api/request";
import { parseResume } from "@/lib/agent/schema";
import { finishTakeover } from "@/lib/agent/handoff";

export const dynamic = "force-dynamic";

export const POST = withPublic("api", async ({ req, params }) =>
  Response.json(
    await finishTakeover({
      taskId: params.id!,
      token: new URL(req.url).searchParams.get("token"),
      ...parseResume(await readJson(req, { optional: true })),
    }),
  ),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
