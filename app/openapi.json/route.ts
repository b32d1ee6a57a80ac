// Public: the API reference is documentation, not data (no key needed).
import { withPublic } from "@/lib/routes/handlers";
import { openApiDocument } from "@/lib/routes/openapi/document";
import { publicOrigin } from "@/lib/api/public-url";

export const dynamic = "force-dynamic";

export const GET = withPublic("api", async ({ req }) =>
  Response.json(openApiDocument(publicOrigin(req.headers)), { headers: { "cache-control": "public, max-age=300" } }),
);
