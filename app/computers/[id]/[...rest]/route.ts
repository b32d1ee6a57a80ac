// Everything else under /computers/{id}/: the per-action paths of docs/contract.md "Actions"
// (click, type, hotkey, …) and a JSON 404 for unknown paths.
import { withApiKey } from "@/lib/routes/handlers";
import { readJson } from "@/lib/api/request";
import { routeUnknownPath, actionCall } from "@/lib/computers/session-actions";

export const dynamic = "force-dynamic";

const handler = withApiKey("api", async (ctx) =>
  Response.json(
    await routeUnknownPath({
      ...actionCall(ctx),
      method: ctx.req.method,
      path: ctx.params.rest,
      readBody: () => readJson(ctx.req, { optional: true }),
    }),
  ),
);

export const GET = handler;
export const POST = handler;
export const PUT = handler;
export const PATCH = handler;
export const DELETE = handler;
