import { withApiKey } from "@/lib/routes/handlers";
import { SSE_HEADERS } from "@/lib/api/sse";
import { replayStart, openSessionEvents } from "@/lib/computers/session-streams";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async (ctx) => {
  const replayAfter = replayStart(ctx.req.headers.get("last-event-id"), new URL(ctx.req.url).searchParams.get("since"));
  return new Response(
    await openSessionEvents({ principal: ctx.principal, id: ctx.params.id, signal: ctx.req.signal, replayAfter }),
    { headers: SSE_HEADERS },
  );
});
