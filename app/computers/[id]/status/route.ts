import { methodNotAllowed, withApiKey } from "@/lib/api/handlers";
import { getComputer } from "@/lib/computers/service";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ principal, params }) =>
  Response.json(await getComputer({ principal, id: params.id })),
);

const wrongMethod = methodNotAllowed(["GET"]);
export { wrongMethod as POST, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
