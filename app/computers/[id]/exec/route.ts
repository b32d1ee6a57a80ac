import { withApiKey } from "@/lib/routes/handlers";
import { readJson } from "@/lib/api/request";
import { execStream } from "@/lib/computers/session-streams";

export const dynamic = "force-dynamic";

// Always 200 once authenticated: failures are an NDJSON error line (execStream).
export const POST = withApiKey(
  "api",
  (ctx) =>
    new Response(
      execStream({
        principal: ctx.principal,
        id: ctx.params.id,
        requestId: ctx.requestId,
        readBody: () => readJson(ctx.req),
        signal: ctx.req.signal,
      }),
      {
        headers: {
          "content-type": "application/x-ndjson; charset=utf-8",
          "cache-control": "no-store",
          "x-accel-buffering": "no",
        },
      },
    ),
);
