import { withApiKey } from "@/lib/api/handlers";
import { SSE_HEADERS } from "@/lib/api/sse";
import { openSessionEvents } from "@/lib/computers/events-service";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async (ctx) =>
  new Response(await openSessionEvents({ principal: ctx.principal, id: ctx.params.id, signal: ctx.req.signal }), { headers: SSE_HEADERS }),
);
