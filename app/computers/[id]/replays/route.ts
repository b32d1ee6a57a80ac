import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { listReplays, startReplay } from "@/lib/computers/session-replays";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal, params }) =>
  Response.json(
    await startReplay({
      caller: principal,
      id: params.id,
      body: await readJson(req, { optional: true }),
      origin: publicOrigin(req.headers),
    }),
    { status: 201 },
  ),
);

export const GET = withApiKey("api", async ({ req, principal, params }) =>
  Response.json(await listReplays({ caller: principal, id: params.id, origin: publicOrigin(req.headers) })),
);

const wrongMethod = methodNotAllowed(["GET", "POST"]);
export { wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
