// The dashboard's agent tasks: GET the organization's list, POST to start one for the team (billed with no API key).
import { publicOrigin } from "@/lib/api/public-url";
import { readJson } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { parseTaskStart } from "@/lib/agent/schema";
import { listTasks, startTask } from "@/lib/agent/service";
import { forwardByBody } from "@/lib/cluster/forward-by-body";

export const dynamic = "force-dynamic";

const teamCaller = (organizationId: string) => ({ organizationId, apiKeyId: null });

export const GET = withMember(async ({ member }) =>
  Response.json(await listTasks({ caller: teamCaller(member.organizationId) })),
);

export const POST = withMember(async ({ req, member }) => {
  const body = await readJson(req);
  const { organizationId, ...who } = member;
  const elsewhere = await forwardByBody({ req, body, caller: { organizationId, apiKeyId: null, member: who } });
  if (elsewhere) return elsewhere;
  return Response.json(
    await startTask({
      caller: teamCaller(organizationId),
      start: parseTaskStart(body),
      origin: publicOrigin(req.headers),
    }),
    { status: 201 },
  );
});
