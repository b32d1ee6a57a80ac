// What action routes pass to the action service (`ActionCall`), built from the
// wrapper's context: links in answers (screenshot_url) use publicOrigin.
import type { ApiKeyContext } from "@/lib/api/handlers";
import { publicOrigin } from "@/lib/api/public-url";
import type { ActionCall } from "@/lib/computers/actions/action-service";

export function actionCall(ctx: ApiKeyContext): ActionCall {
  return {
    principal: ctx.principal,
    id: ctx.params.id,
    requestId: ctx.requestId,
    baseUrl: publicOrigin(ctx.req.headers),
  };
}
