// POST /api/sessions/{id}/exec: the session page's exec console. The NDJSON of
// POST /computers/{id}/exec for the member's organization; always 200 once logged
// in (failures are one error line); closing the request kills the command.
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { execStreamAs } from "@/lib/computers/session-streams";

export const dynamic = "force-dynamic";

export const POST = withMember(
  ({ req, member, params, requestId }) =>
    new Response(
      execStreamAs(member, { id: params.id, requestId, readBody: () => readJson(req), signal: req.signal }),
      {
        headers: {
          "content-type": "application/x-ndjson; charset=utf-8",
          "cache-control": "no-store",
          "x-accel-buffering": "no",
        },
      },
    ),
);
