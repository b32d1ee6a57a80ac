// POST /v1/completions — legacy text completions, JSON or Server-Sent Events.
import { completionsRoute, postOnly } from "@/lib/models/routes";

export const dynamic = "force-dynamic";

export const POST = completionsRoute;
export const { GET, PUT, PATCH, DELETE } = postOnly;
