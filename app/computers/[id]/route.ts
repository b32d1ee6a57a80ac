import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import { deleteComputer, getComputer } from "@/lib/computers/service";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ req, principal, params }) =>
  Response.json(await getComputer({ principal, id: params.id, origin: publicOrigin(req.headers) })),
);

export const DELETE = withApiKey("api", async ({ req, principal, params }) => {
  await deleteComputer({ principal, id: params.id });
  return new Response(null, { status: 204 });
});

const wrongMethod = methodNotAllowed(["GET", "DELETE"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH };
