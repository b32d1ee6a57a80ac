import { parseBody } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { revokeKeyAs } from "@/lib/auth/dashboard";
import { BudgetBody, setKeyBudget } from "@/lib/models/model-settings";

export const DELETE = withMember(async ({ member, params }) => Response.json(await revokeKeyAs(member, params.id)));

/** The key's monthly budget (owners and admins). */
export const PATCH = withMember(
  async ({ req, member, params }) => {
    const { monthly_budget_usd } = await parseBody(req, BudgetBody);
    return Response.json(await setKeyBudget(member.organizationId, params.id, monthly_budget_usd));
  },
  { roles: ["owner", "admin"] },
);
