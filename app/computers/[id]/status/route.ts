import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { getComputer } from "@/lib/computers/service";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ req, principal, params }) =>
  Response.json(await getComputer({ principal, id: params.id, origin: publicOrigin(req.headers) })),
);

const wrongMethod = methodNotAllowed(["GET"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
