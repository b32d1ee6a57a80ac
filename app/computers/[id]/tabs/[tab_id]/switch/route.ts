import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { switchTab, actionCall } from "@/lib/computers/session-actions";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async (ctx) =>
  Response.json(await switchTab({ ...actionCall(ctx), tabId: ctx.params.tab_id })),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
