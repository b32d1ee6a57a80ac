import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { readJson } from "@/lib/api/request";
import { runNamedAction, actionCall } from "@/lib/computers/session-actions";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async (ctx) =>
  Response.json(
    await runNamedAction({ ...actionCall(ctx), name: "navigate", body: await readJson(ctx.req, { optional: true }) }),
  ),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
