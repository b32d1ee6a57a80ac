// The task page's controls: POST pause | resume | stop | messages ({message}).
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/api/with-member";
import { controlTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

export const POST = withMember(async ({ req, member, params }) =>
  Response.json(
    await controlTask({
      caller: { organizationId: member.organizationId, apiKeyId: null },
      id: params.id!,
      action: params.action!,
      body: await readJson(req, { optional: true }),
    }),
  ),
);
