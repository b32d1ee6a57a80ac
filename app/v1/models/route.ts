// GET /v1/models — the configured models (OpenAI list shape).
import { listModelsRoute } from "@/lib/models/routes";
import { nextRoute } from "@/lib/models/next-route";

export const dynamic = "force-dynamic";

export const GET = nextRoute(listModelsRoute);
