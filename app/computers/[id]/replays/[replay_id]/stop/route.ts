import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { stopReplay } from "@/lib/computers/session-replays";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal, params }) =>
  Response.json(
    await stopReplay({
      caller: principal,
      id: params.id,
      replayId: params.replay_id,
      origin: publicOrigin(req.headers),
    }),
  ),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
