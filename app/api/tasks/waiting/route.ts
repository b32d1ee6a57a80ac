// GET /api/tasks/waiting: the organization's tasks waiting for a person (the navigation's badge polls it;
// one indexed count-sized read, docs/dashboard.md).
import { withMember } from "@/lib/routes/with-member";
import { waitingTasks } from "@/lib/agent/handoff";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member }) => Response.json(await waitingTasks(member.organizationId)));
