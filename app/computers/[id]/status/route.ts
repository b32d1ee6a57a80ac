import { withApiKey } from "@/lib/api/handlers";
import { getComputer } from "@/lib/computers/service";

export const dynamic = "force-dynamic";

export const GET = withApiKey("api", async ({ principal, params }) =>
  Response.json(await getComputer({ principal, id: params.id })),
);
