import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { closeTab, actionCall } from "@/lib/computers/session-actions";

export const dynamic = "force-dynamic";

export const DELETE = withApiKey("api", async (ctx) =>
  Response.json(await closeTab({ ...actionCall(ctx), tabId: ctx.params.tab_id })),
);

const wrongMethod = methodNotAllowed(["DELETE"]);
export { wrongMethod as GET, wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH };
