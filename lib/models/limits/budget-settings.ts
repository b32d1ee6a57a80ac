// Setting monthly budgets from the dashboard (owners and admins; the route
// enforces the role) and the CLI (the operator), and reading them with this
// month's spend for the Keys page.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { getDb } from "@/lib/db";
import { monthOf, setMonthlyBudget, type BudgetScope } from "@/lib/models/limits/budget";

/** `{"monthly_budget_usd": 5}` sets, `null` removes the limit. */
export const BudgetBody = z.object({ monthly_budget_usd: z.number().finite().min(0).nullable() });

export async function setKeyBudget(organizationId: string, keyId: string, usd: number | null) {
  const key = await getDb().apiKey.findFirst({ where: { id: keyId, organizationId }, select: { id: true } });
  if (!key) throw new AppError("not_found", "API key not found");
  await setMonthlyBudget("key", keyId, usd);
  return { id: keyId, monthly_budget_usd: usd };
}

export async function setOrganizationBudget(organizationId: string, usd: number | null) {
  await setMonthlyBudget("organization", organizationId, usd);
  return { organization_id: organizationId, monthly_budget_usd: usd };
}

/** The operator's form: by slug (CLI). */
export async function setOrganizationBudgetBySlug(slug: string, usd: number | null) {
  const org = await getDb().organization.findUnique({ where: { slug }, select: { id: true } });
  if (!org) throw new AppError("not_found", `No organization with slug ${slug}`);
  return setOrganizationBudget(org.id, usd);
}

/** The operator's form: any key by id (CLI). */
export async function setKeyBudgetById(keyId: string, usd: number | null) {
  const key = await getDb().apiKey.findUnique({ where: { id: keyId }, select: { organizationId: true } });
  if (!key) throw new AppError("not_found", `No API key with id ${keyId}`);
  return setKeyBudget(key.organizationId, keyId, usd);
}

/**
 * The organization's and each live key's budget, with what was spent this month (UTC; the totals budgets are checked
 * against).
 */
export async function getBudgets(organizationId: string) {
  const db = getDb();
  const now = new Date();
  const month = monthOf(now);
  const [org, keys] = await Promise.all([
    db.organization.findUnique({ where: { id: organizationId }, select: { monthlyBudgetUsd: true } }),
    db.apiKey.findMany({ where: { organizationId, revokedAt: null }, select: { id: true, monthlyBudgetUsd: true } }),
  ]);
  const totals = await db.usageMonthTotal.findMany({
    where: {
      month,
      OR: [
        { scope: "organization", subjectId: organizationId },
        { scope: "key", subjectId: { in: keys.map((key) => key.id) } },
      ],
    },
  });
  const spent = (scope: BudgetScope, id: string) =>
    totals.find((t) => t.scope === scope && t.subjectId === id)?.costUsd ?? 0;
  return {
    month_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
    organization: {
      monthly_budget_usd: org?.monthlyBudgetUsd ?? null,
      spent_usd: spent("organization", organizationId),
    },
    keys: keys.map((key) => ({
      id: key.id,
      monthly_budget_usd: key.monthlyBudgetUsd,
      spent_usd: spent("key", key.id),
    })),
  };
}
