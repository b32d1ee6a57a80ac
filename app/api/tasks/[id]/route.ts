// One agent task for the dashboard's task page (steps with screenshot links, usage, result).
import { publicOrigin } from "@/lib/api/public-url";
import { withMember } from "@/lib/routes/with-member";
import { getTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ req, member, params }) =>
  Response.json(
    await getTask({
      caller: { organizationId: member.organizationId, apiKeyId: null },
      id: params.id!,
      origin: publicOrigin(req.headers),
    }),
  ),
);
