// POST /api/sessions/{id}/tabs/{tab_id}/navigate {url}: the address field of the
// session page loads a URL in the current tab (go_to_url on that tab), for the
// member's organization. A page that did not load is an ActionResult with
// status "error" and the reason, as on POST /computers/{id}/execute.
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { navigateSessionTabAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const POST = withMember(async ({ req, requestId, member, params }) =>
  Response.json(
    await navigateSessionTabAs({
      member,
      id: params.id,
      tabId: params.tab_id,
      requestId,
      origin: publicOrigin(req.headers),
      body: await readJson(req),
    }),
  ),
);
