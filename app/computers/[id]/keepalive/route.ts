import { methodNotAllowed, withApiKey } from "@/lib/api/handlers";
import { keepAlive } from "@/lib/computers/service";

export const dynamic = "force-dynamic";

export const POST = withApiKey("api", async ({ principal, params }) =>
  Response.json(await keepAlive({ principal, id: params.id })),
);

const wrongMethod = methodNotAllowed(["POST"]);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
