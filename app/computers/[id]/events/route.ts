import { withApiKey } from "@/lib/api/handlers";
import { SSE_HEADERS } from "@/lib/api/sse";
import { replayStart } from "@/lib/computers/events/event-history";
import { openSessionEvents } from "@/lib/computers/events/events-service";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async (ctx) => {
  const replayAfter = replayStart(ctx.req.headers.get("last-event-id"), new URL(ctx.req.url).searchParams.get("since"));
  return new Response(
    await openSessionEvents({ principal: ctx.principal, id: ctx.params.id, signal: ctx.req.signal, replayAfter }),
    { headers: SSE_HEADERS },
  );
});
