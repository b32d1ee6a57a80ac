import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { deleteProfile, getProfile } from "@/lib/computers/session-profiles";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ principal, params }) =>
  Response.json(await getProfile({ organizationId: principal.organizationId, name: params.name })),
);

export const DELETE = withApiKey("api", async ({ principal, params }) => {
  await deleteProfile({ organizationId: principal.organizationId, name: params.name });
  return new Response(null, { status: 204 });
});

const wrongMethod = methodNotAllowed(["GET", "DELETE"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH };
