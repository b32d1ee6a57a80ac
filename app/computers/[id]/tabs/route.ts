import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { readJson } from "@/lib/api/request";
import { createTab, listTabs, actionCall } from "@/lib/computers/session-actions";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async (ctx) => Response.json(await listTabs(actionCall(ctx))));

export const POST = withApiKey("api", async (ctx) =>
  Response.json(await createTab({ ...actionCall(ctx), body: await readJson(ctx.req, { optional: true }) })),
);

const wrongMethod = methodNotAllowed(["GET", "POST"]);
export { wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
