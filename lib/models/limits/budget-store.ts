// Where BudgetLedger reads budgets and spend. Every database: the budget on the
// organization's or key's row and the month's spend in usage_month_totals (kept by
// the usage batches). PostgreSQL adds the shared spend (SharedSpend): a
// budget_spend row per budgeted account and month, to which each node adds every
// cost as it is recorded, in one statement, and which each check reads fresh.
// A row starts from the account's usage_month_totals (the spend before the budget
// was set, or before this month's first budgeted request), and a read takes the
// larger of the two, so a cost whose shared write failed still arrives with its
// usage batch.
import { dbProvider, getDb } from "@/lib/db";
import type { AccountRef, BudgetStore, SharedSpend } from "@/lib/models/limits/budget";

const loadFromDb: BudgetStore["load"] = async (scope, id, month) => {
  const db = getDb();
  const total = db.usageMonthTotal.findUnique({ where: { scope_subjectId_month: { scope, subjectId: id, month } }, select: { costUsd: true } });
  const settings =
    scope === "organization"
      ? db.organization.findUnique({ where: { id }, select: { monthlyBudgetUsd: true } })
      : db.apiKey.findUnique({ where: { id }, select: { monthlyBudgetUsd: true } });
  const [subject, spent] = await Promise.all([settings, total]);
  return { budget: subject?.monthlyBudgetUsd ?? null, spent: spent?.costUsd ?? 0 };
};

/** `($1, $2), ($3, $4)…` for the accounts, the month as the last parameter. */
function accountValues(accounts: AccountRef[]): { values: string; params: string[] } {
  const params = accounts.flatMap((a) => [a.scope, a.id]);
  const values = accounts.map((_, i) => `($${2 * i + 1}::text, $${2 * i + 2}::text, ${i})`).join(", ");
  return { values, params };
}

const pgSharedSpend: SharedSpend = {
  async spent(accounts, month) {
    const { values, params } = accountValues(accounts);
    const m = `$${params.length + 1}::int`;
    const rows = await getDb().$queryRawUnsafe<{ spent: number }[]>(
      `SELECT GREATEST(COALESCE(b."costUsd", 0), COALESCE(t."costUsd", 0)) AS "spent"
       FROM (VALUES ${values}) AS a("scope", "subjectId", "position")
       LEFT JOIN "budget_spend" b ON b."scope" = a."scope" AND b."subjectId" = a."subjectId" AND b."month" = ${m}
       LEFT JOIN "usage_month_totals" t ON t."scope" = a."scope" AND t."subjectId" = a."subjectId" AND t."month" = ${m}
       ORDER BY a."position"`,
      ...params,
      month,
    );
    return rows.map((row) => Number(row.spent));
  },
  async add(accounts, month, cost) {
    const { values, params } = accountValues(accounts);
    const m = `$${params.length + 1}::int`;
    const c = `$${params.length + 2}::double precision`;
    await getDb().$executeRawUnsafe(
      `INSERT INTO "budget_spend" ("scope", "subjectId", "month", "costUsd")
       SELECT a."scope", a."subjectId", ${m}, COALESCE(t."costUsd", 0) + ${c}
       FROM (VALUES ${values}) AS a("scope", "subjectId", "position")
       LEFT JOIN "usage_month_totals" t ON t."scope" = a."scope" AND t."subjectId" = a."subjectId" AND t."month" = ${m}
       ON CONFLICT ("scope", "subjectId", "month") DO UPDATE SET "costUsd" = "budget_spend"."costUsd" + ${c}`,
      ...params,
      month,
      cost,
    );
  },
};

/** The ledger's store: with the shared spend on PostgreSQL (several nodes), without on SQLite (one). */
export function budgetStore(): BudgetStore {
  return dbProvider() === "postgresql" ? { load: loadFromDb, shared: pgSharedSpend } : { load: loadFromDb };
}
