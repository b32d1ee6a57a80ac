import { methodNotAllowed, withPublic } from "@/lib/routes/handlers";
import { SSE_HEADERS } from "@/lib/api/sse";
import { openScreencastStream } from "@/lib/computers/session-streams";

export const dynamic = "force-dynamic";

// Public wrapper: the live-view token in endpoints.screencast stands in for the API key (EventSource sends no headers).
export const GET = withPublic("api", async ({ req, params }) => {
  const url = new URL(req.url);
  const stream = await openScreencastStream({
    id: params.id,
    authorization: req.headers.get("authorization"),
    token: url.searchParams.get("token"),
    query: url.searchParams,
    signal: req.signal,
  });
  return new Response(stream, { headers: SSE_HEADERS });
});

const wrongMethod = methodNotAllowed(["GET"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
