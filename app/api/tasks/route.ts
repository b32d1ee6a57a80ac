// The dashboard's agent tasks: GET the organization's list, POST to start one for the team (billed with no API key).
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { parseTaskStart } from "@/lib/agent/schema";
import { listTasks, startTask } from "@/lib/agent/service";

export const dynamic = "force-dynamic";

const teamCaller = (organizationId: string) => ({ organizationId, apiKeyId: null });

export const GET = withMember(async ({ member }) =>
  Response.json(await listTasks({ caller: teamCaller(member.organizationId) })),
);

export const POST = withMember(async ({ req, member }) => {
  const start = parseTaskStart(await readJson(req));
  return Response.json(
    await startTask({ caller: teamCaller(member.organizationId), start, origin: publicOrigin(req.headers) }),
    { status: 201 },
  );
});
