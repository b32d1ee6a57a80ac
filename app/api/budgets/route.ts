// GET /api/budgets — the organization's and its keys' monthly budgets and spend.
// PUT /api/budgets — the organization's budget (owners and admins).
import { parseBody } from "@/lib/api/request";
import { withMember } from "@/lib/routes/with-member";
import { BudgetBody, getBudgets, setOrganizationBudget } from "@/lib/models/model-settings";

export const dynamic = "force-dynamic";

export const GET = withMember(async ({ member }) => Response.json(await getBudgets(member.organizationId)));

export const PUT = withMember(
  async ({ req, member }) => {
    const { monthly_budget_usd } = await parseBody(req, BudgetBody);
    return Response.json(await setOrganizationBudget(member.organizationId, monthly_budget_usd));
  },
  { roles: ["owner", "admin"] },
);
