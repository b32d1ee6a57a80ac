// POST /v1/embeddings — vectors for a string or an array of strings.
import { embeddingsRoute, postOnly } from "@/lib/models/routes";
import { nextRoute } from "@/lib/models/next-route";

export const dynamic = "force-dynamic";

export const POST = nextRoute(embeddingsRoute);
export const GET = nextRoute(postOnly);
export { GET as PUT, GET as PATCH, GET as DELETE };
