// /api/sessions/{id}/replays: GET the session's replays (also after it ended), POST
// {framerate?, max_duration_seconds?} to record it (the page's Record), for the
// member's organization; the same service as /computers/{id}/replays.
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { listSessionReplaysAs, startSessionReplayAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ req, member, params }) =>
  Response.json(await listSessionReplaysAs(member, { id: params.id!, origin: publicOrigin(req.headers) })),
);

export const POST = withMember(async ({ req, member, params }) =>
  Response.json(
    await startSessionReplayAs(member, {
      id: params.id!,
      body: await readJson(req, { optional: true }),
      origin: publicOrigin(req.headers),
    }),
    { status: 201 },
  ),
);
