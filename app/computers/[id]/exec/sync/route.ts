import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { readJson } from "@/lib/api/request";
import { execSync } from "@/lib/computers/session-actions";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async (ctx) =>
  Response.json(
    await execSync({
      principal: ctx.principal,
      id: ctx.params.id,
      requestId: ctx.requestId,
      body: await readJson(ctx.req),
    }),
  ),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
