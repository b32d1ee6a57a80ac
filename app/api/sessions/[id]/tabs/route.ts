// /api/sessions/{id}/tabs: the public tab list and "open a tab" (body {url?}),
// for the member's organization.
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { listSessionTabsAs, openSessionTabAs } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ req, requestId, member, params }) =>
  Response.json(await listSessionTabsAs({ member, id: params.id, requestId, origin: publicOrigin(req.headers) })),
);

export const POST = withMember(async ({ req, requestId, member, params }) =>
  Response.json(
    await openSessionTabAs({
      member,
      id: params.id,
      requestId,
      origin: publicOrigin(req.headers),
      body: await readJson(req, { optional: true }),
    }),
  ),
);
