import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { parseBody } from "@/lib/api/request";
import { replaceCredentialBody } from "@/lib/credentials/credential-input";
import { deleteCredential, getCredential, replaceCredential } from "@/lib/credentials/store";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ principal, params }) =>
  Response.json(await getCredential(principal.organizationId, params.name)),
);

export const PUT = withApiKey("api", async ({ req, principal, params }) => {
  const body = await parseBody(req, replaceCredentialBody);
  return Response.json(await replaceCredential(principal.organizationId, params.name, body));
});

export const DELETE = withApiKey("api", async ({ principal, params }) => {
  await deleteCredential(principal.organizationId, params.name);
  return new Response(null, { status: 204 });
});

const wrongMethod = methodNotAllowed(["GET", "PUT", "DELETE"]);
export { wrongMethod as POST, wrongMethod as PATCH };
