// POST /api/sessions/{id}/replays/{replay_id}/stop: the page's Stop recording.
import { publicOrigin } from "@/lib/api/public-url";
import { withMember } from "@/lib/routes/with-member";
import { stopSessionReplayAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const POST = withMember(async ({ req, member, params }) =>
  Response.json(
    await stopSessionReplayAs(member, {
      id: params.id!,
      replayId: params.replay_id!,
      origin: publicOrigin(req.headers),
    }),
  ),
);
