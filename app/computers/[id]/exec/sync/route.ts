import { withApiKey } from "@/lib/api/handlers";
import { readJson } from "@/lib/api/request";
import { execSync } from "@/lib/computers/desktop/exec-service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async (ctx) =>
  Response.json(await execSync({ principal: ctx.principal, id: ctx.params.id, requestId: ctx.requestId, body: await readJson(ctx.req) })),
);
