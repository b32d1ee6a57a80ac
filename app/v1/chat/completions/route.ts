// POST /v1/chat/completions — JSON or Server-Sent Events (stream: true).
import { chatCompletionsRoute, postOnly } from "@/lib/models/routes";

export const dynamic = "force-dynamic";

export const POST = chatCompletionsRoute;
export const { GET, PUT, PATCH, DELETE } = postOnly;
