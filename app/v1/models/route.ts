// GET /v1/models — the configured models (OpenAI list shape).
import { listModelsRoute } from "@/lib/models/routes";

export const dynamic = "force-dynamic";

export const GET = listModelsRoute;
