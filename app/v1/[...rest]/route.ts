// Any other path under /v1: a 404 in the OpenAI envelope (not Next's HTML page).
import { unknownPath } from "@/lib/models/routes";
import { nextRoute } from "@/lib/models/next-route";

export const dynamic = "force-dynamic";

export const GET = nextRoute(unknownPath);
export { GET as POST, GET as PUT, GET as PATCH, GET as DELETE };
