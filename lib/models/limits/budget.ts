// Monthly spend limits (USD, calendar month in UTC) per organization and per
// API key. Each account's budget and spend are cached in memory, each recorded
// request's cost is added as it is recorded (`add`, called by recordUsage), and
// an account is reloaded in the background at most every BUDGET_REFRESH_MS (so
// budget changes made elsewhere show up within that time). A reload keeps the
// larger of the cached and stored spend: rows still waiting in the usage
// BatchWriter are not in the database yet, and spend never goes down within a month.
// The stored spend is one row per account and month (usage_month_totals, kept by
// the usage writes), so a reload costs the same whatever the month's traffic.
// One node (SQLite) asks no database on the hot path. On PostgreSQL, where several
// nodes spend one budget, a store with `shared` (pgBudgetStore) counts each cost
// of a budgeted account in a row at once and the check reads that row fresh, so a
// budget is overshot by at most the requests in flight when it runs out
// (docs/scale-out.md); accounts with no budget still cost no query.
import { AppError } from "@/lib/api/errors";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import type { OrganizationResources } from "@/lib/auth/organization-resources";
import { getDb } from "@/lib/db";
import { getLogger } from "@/lib/logger";
import { budgetStore } from "@/lib/models/limits/budget-store";
import { singleton, singletonKey } from "@/lib/singleton";

export type BudgetScope = "organization" | "key";

interface Account {
  budget: number | null;
  spent: number;
  /** Months since year 0 (UTC): a number, compared on every request, rather than a formatted string. */
  month: number;
  loadedAt: number;
  loading: Promise<void> | null;
  /** Costs counted here and sent to the shared store, not yet acknowledged by it. */
  pending: number;
}

export interface AccountRef {
  scope: BudgetScope;
  id: string;
}

/** Spend every node counts in one place (PostgreSQL): read fresh by each check of a budgeted account. */
export interface SharedSpend {
  /** Each account's spend in `month` as all nodes have counted it so far, in the order asked. */
  spent(accounts: AccountRef[], month: number): Promise<number[]>;
  /** Adds one request's cost to each account's shared spend. */
  add(accounts: AccountRef[], month: number, cost: number): Promise<void>;
}

export interface BudgetStore {
  /** The account's budget and its stored spend in `month` (monthOf). */
  load(scope: BudgetScope, id: string, month: number): Promise<{ budget: number | null; spent: number }>;
  shared?: SharedSpend;
}

/** Months since year 0 in UTC: the `month` of usage_month_totals. */
export const monthOf = (now: Date) => now.getUTCFullYear() * 12 + now.getUTCMonth();

export class BudgetLedger {
  /** One map per scope, keyed by id: no key string is built per lookup on the hot path. */
  private readonly accounts: Record<BudgetScope, Map<string, Account>> = { organization: new Map(), key: new Map() };

  constructor(
    private readonly store: BudgetStore,
    private readonly refreshMs = 5000,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private account(scope: BudgetScope, id: string): Account | undefined {
    return this.accounts[scope].get(id);
  }

  private reload(scope: BudgetScope, id: string): Promise<void> {
    const accounts = this.accounts[scope];
    const existing = accounts.get(id);
    if (existing?.loading) return existing.loading;
    const now = this.now();
    const loading = this.store.load(scope, id, monthOf(now)).then(
      ({ budget, spent }) => {
        const current = accounts.get(id);
        const sameMonth = current?.month === monthOf(now);
        accounts.set(id, {
          budget,
          spent: sameMonth ? Math.max(current.spent, spent) : spent,
          month: monthOf(now),
          loadedAt: now.getTime(),
          loading: null,
          pending: sameMonth ? current.pending : 0,
        });
      },
      (err) => {
        const current = accounts.get(id);
        if (current) current.loading = null;
        else accounts.delete(id);
        throw err;
      },
    );
    if (existing) existing.loading = loading;
    else accounts.set(id, { budget: null, spent: 0, month: -1, loadedAt: 0, loading, pending: 0 });
    return loading;
  }

  /** Loaded and of this month: usable without waiting (a stale one is refreshed in the background); else undefined. */
  private usable(scope: BudgetScope, id: string, now: Date): Account | undefined {
    const account = this.account(scope, id);
    if (!account || account.month !== monthOf(now)) return undefined;
    if (!account.loading && now.getTime() - account.loadedAt >= this.refreshMs) {
      this.reload(scope, id).catch((err) => getLogger().warn({ err, scope, id }, "budget refresh failed; using the cached spend"));
    }
    return account;
  }

  private async ready(scope: BudgetScope, id: string): Promise<Account> {
    const account = this.usable(scope, id, this.now());
    if (account) return account;
    await this.reload(scope, id);
    return this.account(scope, id)!;
  }

  /**
   * Refuses (429 insufficient_quota) when the key or its organization has spent
   * its monthly budget. No key (the dashboard's playground): the organization's only.
   * Answers at once (no promise) when both accounts are cached, as on nearly every request.
   */
  check(principal: { organizationId: string; apiKeyId: string | null }): void | Promise<void> {
    const now = this.now();
    const org = this.usable("organization", principal.organizationId, now);
    const key = principal.apiKeyId ? this.usable("key", principal.apiKeyId, now) : undefined;
    if (org && (key || !principal.apiKeyId)) return this.decide(principal, org, key);
    return Promise.all([
      this.ready("organization", principal.organizationId),
      principal.apiKeyId ? this.ready("key", principal.apiKeyId) : undefined,
    ]).then(([loadedOrg, loadedKey]) => this.decide(principal, loadedOrg, loadedKey));
  }

  /** Refuses on the cached spend, or (shared store, an account with a budget) on the spend all nodes counted. */
  private decide(principal: { organizationId: string; apiKeyId: string | null }, org: Account, key: Account | undefined): void | Promise<void> {
    const shared = this.store.shared;
    const budgeted: [AccountRef, Account][] = [];
    if (org.budget !== null) budgeted.push([{ scope: "organization", id: principal.organizationId }, org]);
    if (key && key.budget !== null && principal.apiKeyId) budgeted.push([{ scope: "key", id: principal.apiKeyId }, key]);
    if (!shared || budgeted.length === 0) return refuseIfSpent(org, key);
    const month = monthOf(this.now());
    return shared.spent(budgeted.map(([ref]) => ref), month).then(
      (spent) => {
        // The row plus this node's costs still on their way to it; never below what this node already counted.
        budgeted.forEach(([, account], i) => {
          if (account.month === month) account.spent = Math.max(account.spent, spent[i]! + account.pending);
        });
        refuseIfSpent(org, key);
      },
      (err: unknown) => {
        // The database did not answer: decide on what this node knows rather than fail the request.
        getLogger().warn({ err, organizationId: principal.organizationId }, "could not read the shared budget spend; checking the cached spend");
        refuseIfSpent(org, key);
      },
    );
  }

  /** USD left this month under the tighter of the key's and the organization's budgets; null when neither has one. */
  remaining(principal: ApiPrincipal): number | null {
    let left: number | null = null;
    for (const account of [this.account("organization", principal.organizationId), this.account("key", principal.apiKeyId)]) {
      if (!account || account.budget === null) continue;
      const rest = Math.max(0, account.budget - account.spent);
      left = left === null ? rest : Math.min(left, rest);
    }
    return left;
  }

  /** A recorded request's cost, counted at once against both accounts (when they are cached). */
  add(organizationId: string, apiKeyId: string | null, cost: number): void {
    if (cost <= 0) return;
    const month = monthOf(this.now());
    const toShare: [AccountRef, Account][] = [];
    for (const [ref, account] of [
      [{ scope: "organization", id: organizationId }, this.account("organization", organizationId)],
      [{ scope: "key", id: apiKeyId ?? "" }, apiKeyId ? this.account("key", apiKeyId) : undefined],
    ] as const) {
      if (!account || account.month !== month) continue;
      account.spent += cost;
      if (account.budget !== null) toShare.push([ref, account]);
    }
    const shared = this.store.shared;
    if (!shared || toShare.length === 0) return;
    for (const [, account] of toShare) account.pending += cost;
    const settled = () => {
      for (const [, account] of toShare) account.pending -= cost;
    };
    shared.add(toShare.map(([ref]) => ref), month, cost).then(settled, (err: unknown) => {
      settled();
      // usage_month_totals still gets the cost with the usage row; the shared check reads the larger of both.
      getLogger().warn({ err, organizationId, apiKeyId }, "could not count a cost in the shared budget spend; it arrives with the usage batch");
    });
  }

  /** A budget changed in this process: use it now (other processes see it within `refreshMs`). */
  setBudget(scope: BudgetScope, id: string, budget: number | null): void {
    const account = this.account(scope, id);
    if (account) account.budget = budget;
  }
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

function refuseIfSpent(org: Account, key: Account | undefined): void {
  for (const [what, account] of [["API key", key], ["organization", org]] as const) {
    if (account && account.budget !== null && account.spent >= account.budget) {
      throw new AppError(
        "rate_limited",
        `The ${what}'s monthly budget of $${account.budget} is spent ($${round(account.spent)} this month); raise it or wait for the next month`,
        { detail: "insufficient_quota", openaiType: "insufficient_quota" },
      );
    }
  }
}

/** The remaining-budget header value: USD with up to 6 decimals. */
export const formatUsd = (usd: number) => String(round(usd));

const ledgerKey = singletonKey<BudgetLedger>("models.budgetLedger");

export const getBudgetLedger = () => singleton(ledgerKey, () => new BudgetLedger(budgetStore()));

/**
 * Drops the month totals of a deleted organization and of its keys. Its usage rows
 * go with it (a cascade); the totals, kept by the usage writes, have no foreign key.
 * The organization is already gone when this runs: a failure is logged, not thrown,
 * since leftover totals are never read again.
 */
export async function forgetSpendOf(organizationId: string, apiKeyIds: string[]): Promise<void> {
  await getDb()
    .usageMonthTotal.deleteMany({
      where: { OR: [{ scope: "organization", subjectId: organizationId }, { scope: "key", subjectId: { in: apiKeyIds } }] },
    })
    .catch((err: unknown) => getLogger().warn({ err, organizationId }, "could not drop a deleted organization's month totals"));
}

/** Sets (or clears, with null) a monthly budget; the caller has checked who may. */
export async function setMonthlyBudget(scope: BudgetScope, id: string, usd: number | null): Promise<void> {
  if (usd !== null && !(Number.isFinite(usd) && usd >= 0)) {
    throw new AppError("invalid_request", "monthly_budget_usd must be a number ≥ 0, or null for no limit", { param: "monthly_budget_usd" });
  }
  const db = getDb();
  if (scope === "organization") await db.organization.update({ where: { id }, data: { monthlyBudgetUsd: usd } });
  else await db.apiKey.update({ where: { id }, data: { monthlyBudgetUsd: usd } });
  getBudgetLedger().setBudget(scope, id, usd);
}

/**
 * What an organization's deletion asks of the model API (OrganizationResources): the ids of its
 * keys, collected before their rows go, so their month totals and the organization's can be
 * forgotten after (the totals are not rows of the organization).
 */
export const spendResources: OrganizationResources = {
  async prepareDeletion(organizationId) {
    const keyIds = (await getDb().apiKey.findMany({ where: { organizationId }, select: { id: true } })).map((key) => key.id);
    return { afterDeletion: () => forgetSpendOf(organizationId, keyIds) };
  },
};
