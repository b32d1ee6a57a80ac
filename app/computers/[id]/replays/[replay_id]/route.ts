import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { deleteReplay, readReplay } from "@/lib/computers/session-replays";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", ({ req, principal, params }) =>
  readReplay({
    caller: principal,
    id: params.id,
    replayId: params.replay_id,
    range: req.headers.get("range"),
    origin: publicOrigin(req.headers),
  }),
);

export const DELETE = withApiKey("api", async ({ principal, params }) => {
  await deleteReplay({ caller: principal, id: params.id, replayId: params.replay_id });
  return new Response(null, { status: 204 });
});

const wrongMethod = methodNotAllowed(["GET", "DELETE"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH };
