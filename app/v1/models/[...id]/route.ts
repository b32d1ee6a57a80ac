// GET /v1/models/{id} — one model; ids may contain "/" (upstream names), hence the catch-all.
import { getModelRoute } from "@/lib/models/routes";
import { nextRoute } from "@/lib/models/next-route";

export const dynamic = "force-dynamic";

export const GET = nextRoute(getModelRoute);
