import { methodNotAllowed, withApiKey } from "@/lib/routes/handlers";
import { listProfiles } from "@/lib/computers/session-profiles";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ principal }) =>
  Response.json(await listProfiles({ organizationId: principal.organizationId })),
);

const wrongMethod = methodNotAllowed(["GET"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
