// POST /v1/embeddings — vectors for a string or an array of strings.
import { embeddingsRoute, postOnly } from "@/lib/models/routes";

export const dynamic = "force-dynamic";

export const POST = embeddingsRoute;
export const { GET, PUT, PATCH, DELETE } = postOnly;
