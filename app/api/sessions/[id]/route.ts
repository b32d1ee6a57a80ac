// /api/sessions/{id}: GET one session of the member's organization for the
// session page (readSessionDetail), DELETE to stop it.
import { publicOrigin } from "@/lib/api/public-url";
import { withMember } from "@/lib/routes/with-member";
import { stopSessionAs, readSessionDetail } from "@/lib/computers/session-dashboard";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ req, member, params }) =>
  Response.json(await readSessionDetail(member, params.id, publicOrigin(req.headers))),
);

export const DELETE = withMember(async ({ member, params }) => {
  await stopSessionAs(member, params.id);
  return new Response(null, { status: 204 });
});
