// /api/sessions/{id}/replays/{replay_id}: GET the MP4 (Range for seeking; 202 with
// Retry-After while it is recorded or finished) for the page's <video>, DELETE it.
import { publicOrigin } from "@/lib/api/public-url";
import { withMember } from "@/lib/routes/with-member";
import { deleteSessionReplayAs, readSessionReplayAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const GET = withMember(({ req, member, params }) =>
  readSessionReplayAs(member, {
    id: params.id!,
    replayId: params.replay_id!,
    range: req.headers.get("range"),
    origin: publicOrigin(req.headers),
  }),
);

export const DELETE = withMember(async ({ member, params }) => {
  await deleteSessionReplayAs(member, { id: params.id!, replayId: params.replay_id! });
  return new Response(null, { status: 204 });
});
