// POST /v1/chat/completions — JSON or Server-Sent Events (stream: true).
import { chatCompletionsRoute, postOnly } from "@/lib/models/routes";
import { nextRoute } from "@/lib/models/next-route";

export const dynamic = "force-dynamic";

export const POST = nextRoute(chatCompletionsRoute);
export const GET = nextRoute(postOnly);
export { GET as PUT, GET as PATCH, GET as DELETE };
