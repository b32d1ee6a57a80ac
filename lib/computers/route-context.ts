// What action routes pass to lib/computers/action-service.ts, built from the
// wrapper's context: screenshot URLs use PUBLIC_URL, else the request's origin.
import type { ApiKeyContext } from "@/lib/api/handlers";
import { getEnv } from "@/lib/env";
import type { ActionCall } from "@/lib/computers/action-service";

export function actionCall(ctx: ApiKeyContext): ActionCall {
  const configured = getEnv().PUBLIC_URL;
  return {
    principal: ctx.principal,
    id: ctx.params.id,
    requestId: ctx.requestId,
    baseUrl: (configured ?? new URL(ctx.req.url).origin).replace(/\/$/, ""),
  };
}
