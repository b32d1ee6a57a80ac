// @needs nothing
// BudgetLedger with a shared spend (as on PostgreSQL, several nodes): two ledgers
// over one store see each other's costs on their next check, not a refresh later;
// a cost still on its way to the store counts on the node that recorded it; an
// account with no budget never asks the shared store.
import { describe, expect, it } from "vitest";
import { BudgetLedger, type AccountRef, type BudgetStore } from "@/lib/models/limits/budget";

const principal = { organizationId: "org", apiKeyId: "key" };

function sharedStore(budgets: Record<string, number | null>) {
  const rows = new Map<string, number>();
  const reads: string[][] = [];
  let hold: Promise<void> | null = null;
  const name = (a: AccountRef) => `${a.scope}:${a.id}`;
  const store: BudgetStore = {
    async load(scope, id) {
      return { budget: budgets[`${scope}:${id}`] ?? null, spent: rows.get(`${scope}:${id}`) ?? 0 };
    },
    shared: {
      async spent(accounts) {
        reads.push(accounts.map(name));
        return accounts.map((a) => rows.get(name(a)) ?? 0);
      },
      async add(accounts, _month, cost) {
        if (hold) await hold;
        for (const a of accounts) rows.set(name(a), (rows.get(name(a)) ?? 0) + cost);
      },
    },
  };
  return { store, reads, holdWrites: (until: Promise<void>) => (hold = until) };
}

const refusal = (p: void | Promise<void>) =>
  Promise.resolve(p).then(
    () => null,
    (err: unknown) => err,
  );

describe("BudgetLedger over a shared spend", () => {
  it("a node refuses on the next check once other nodes' costs reach the budget", async () => {
    const { store } = sharedStore({ "key:key": 1 });
    const a = new BudgetLedger(store, 60_000);
    const b = new BudgetLedger(store, 60_000);
    await a.check(principal);
    await b.check(principal);
    a.add("org", "key", 0.6);
    await new Promise((r) => setImmediate(r));
    expect(await refusal(b.check(principal))).toBeNull();
    b.add("org", "key", 0.5);
    await new Promise((r) => setImmediate(r));
    // No refresh has run (60 s): A learns B's cost from the shared row on this very check.
    expect(await refusal(a.check(principal))).toMatchObject({ status: 429, detail: "insufficient_quota" });
  });

  it("a cost whose shared write is still in flight counts on its own node", async () => {
    const { store, holdWrites } = sharedStore({ "organization:org": 1 });
    const a = new BudgetLedger(store, 60_000);
    await a.check(principal);
    let release = () => {};
    holdWrites(new Promise<void>((r) => (release = r)));
    a.add("org", "key", 1.2);
    expect(await refusal(a.check(principal))).toMatchObject({ status: 429 });
    release();
  });

  it("accounts with no budget cost no shared read", async () => {
    const { store, reads } = sharedStore({});
    const a = new BudgetLedger(store, 60_000);
    await a.check(principal);
    a.add("org", "key", 5);
    expect(a.check(principal)).toBeUndefined();
    expect(reads).toEqual([]);
  });

  // Also: the check decides on this node's own count instead of failing.
  it("when the shared spend cannot be read", async () => {
    const { store } = sharedStore({ "organization:org": 1 });
    store.shared!.spent = () => Promise.reject(new Error("database down"));
    const a = new BudgetLedger(store, 60_000);
    expect(await refusal(a.check(principal))).toBeNull();
    a.add("org", "key", 1);
    expect(await refusal(a.check(principal))).toMatchObject({ status: 429 });
  });
});
