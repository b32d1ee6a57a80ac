import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { parseBody } from "@/lib/api/request";
import { createCredentialBody } from "@/lib/credentials/credential-input";
import { createCredential, listCredentials } from "@/lib/credentials/store";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ req, principal }) => {
  const body = await parseBody(req, createCredentialBody);
  return Response.json(await createCredential(principal.organizationId, null, body), { status: 201 });
});

export const GET = withApiKey("api", async ({ principal }) =>
  Response.json({ data: await listCredentials(principal.organizationId) }),
);

const wrongMethod = methodNotAllowed(["GET", "POST"]);
export { wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
