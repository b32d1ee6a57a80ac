// What action routes pass to the action service (`ActionCall`), built from the
// wrapper's context: links in answers (screenshot_url) use publicOrigin.
import { publicOrigin } from "@/lib/api/public-url";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import type { ActionCall } from "@/lib/computers/actions/action-service";

/** What the API-key wrapper (`withApiKey`, lib/routes/handlers.ts) hands a route handler, as far as actions need it. */
interface ActionRouteContext {
  req: Request;
  requestId: string;
  params: Record<string, string>;
  principal: ApiPrincipal;
}

export function actionCall(ctx: ActionRouteContext): ActionCall {
  return {
    principal: ctx.principal,
    id: ctx.params.id,
    requestId: ctx.requestId,
    baseUrl: publicOrigin(ctx.req.headers),
  };
}
