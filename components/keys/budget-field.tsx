"use client";

import { useState } from "react";
import { useBudgets, useSetBudget } from "@/components/keys/use-budgets";
import { useMe } from "@/components/shell/use-me";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

const usd = (value: number) => `$${value.toFixed(value < 1 ? 4 : 2)}`;

/**
 * A monthly budget in USD (empty = no limit) with this month's spend; owners
 * and admins can edit it. `keyId` null is the organization's budget.
 */
export function BudgetField({ keyId }: { keyId: string | null }) {
  const budgets = useBudgets();
  const me = useMe();
  const set = useSetBudget();
  const [draft, setDraft] = useState<string | null>(null);
  const current = keyId ? budgets.data?.keys.find((k) => k.id === keyId) : budgets.data?.organization;
  if (!current) return <span className="text-xs text-slate-400">—</span>;
  const canEdit = me.data?.role === "owner" || me.data?.role === "admin";
  const spent = `${usd(current.spent_usd)} spent this month`;
  if (!canEdit) {
    return (
      <span className="text-xs text-slate-600">
        {current.monthly_budget_usd === null ? "no limit" : `${usd(current.monthly_budget_usd)} / month`} · {spent}
      </span>
    );
  }
  const value = draft ?? (current.monthly_budget_usd === null ? "" : String(current.monthly_budget_usd));
  const save = () => {
    const trimmed = value.trim();
    set.mutate({ keyId, usd: trimmed === "" ? null : Number(trimmed) }, { onSuccess: () => setDraft(null) });
  };
  return (
    <div className="flex flex-col gap-1" data-testid={keyId ? "key-budget" : "org-budget"}>
      <div className="flex items-center gap-2">
        <input
          aria-label={keyId ? "Monthly budget of this key in USD" : "Monthly budget of the organization in USD"}
          className="w-24 rounded border border-slate-300 px-2 py-1 text-sm"
          inputMode="decimal"
          placeholder="no limit"
          value={value}
          onChange={(e) => setDraft(e.target.value)}
        />
        <Button variant="ghost" onClick={save} disabled={set.isPending || draft === null}>
          Save
        </Button>
      </div>
      <span className="text-xs text-slate-500">{spent}</span>
      {set.error && <Alert>{set.error.message}</Alert>}
    </div>
  );
}
