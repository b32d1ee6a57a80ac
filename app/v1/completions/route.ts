// POST /v1/completions — legacy text completions, JSON or Server-Sent Events.
import { completionsRoute, postOnly } from "@/lib/models/routes";
import { nextRoute } from "@/lib/models/next-route";

export const dynamic = "force-dynamic";

export const POST = nextRoute(completionsRoute);
export const GET = nextRoute(postOnly);
export { GET as PUT, GET as PATCH, GET as DELETE };
