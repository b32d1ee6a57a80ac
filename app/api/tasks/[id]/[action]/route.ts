// The task page's controls: POST pause | resume ({note?}) | stop | messages ({message}) | handoff ({reason}).
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { parseTaskControl } from "@/lib/agent/schema";
import { controlTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const POST = withMember(async ({ req, member, params }) =>
  Response.json(
    await controlTask({
      // The member's name goes into a hand-off's history ("resumed by …").
      caller: { organizationId: member.organizationId, apiKeyId: null, actor: member.name || member.email },
      id: params.id!,
      control: parseTaskControl(params.action!, await readJson(req, { optional: true })),
      origin: publicOrigin(req.headers),
    }),
  ),
);
