// @needs nothing
// BudgetLedger: the in-memory budget check (no store query once loaded),
// spend added as recorded, background refresh that never lowers spend, month rollover.
import { describe, expect, it } from "vitest";
import { BudgetLedger, type BudgetScope, type BudgetStore } from "@/lib/models/limits/budget";

const principal = { organizationId: "org", apiKeyId: "key" };

function fakeStore(data: Record<string, { budget: number | null; spent: number }>) {
  const calls: string[] = [];
  const store: BudgetStore = {
    async load(scope: BudgetScope, id: string, month: number) {
      calls.push(`${scope}:${id}:${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, "0")}`);
      return { ...data[`${scope}:${id}`] };
    },
  };
  return { store, calls, data };
}

describe("BudgetLedger", () => {
  it("loads each account once, then checks from memory and counts added spend", async () => {
    const { store, calls } = fakeStore({
      "organization:org": { budget: null, spent: 0 },
      "key:key": { budget: 1, spent: 0.4 },
    });
    let now = new Date("2026-11-23T10:00:00Z");
    const ledger = new BudgetLedger(store, 5000, () => now);
    await ledger.check(principal);
    expect(calls).toEqual(["organization:org:2026-11", "key:key:2026-11"]);
    expect(ledger.remaining(principal)).toBeCloseTo(0.6);
    ledger.add("org", "key", 0.5);
    now = new Date(now.getTime() + 1000);
    expect(ledger.check(principal)).toBeUndefined(); // cached: no promise, no store query
    expect(calls).toHaveLength(2);
    ledger.add("org", "key", 0.2);
    // Both accounts cached: answered at once, a throw rather than a rejected promise.
    let refusal: unknown;
    try {
      ledger.check(principal);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toMatchObject({ status: 429, detail: "insufficient_quota", openaiType: "insufficient_quota" });
    expect(ledger.remaining(principal)).toBe(0);
  });

  it("a refresh takes a new budget and a higher stored spend but never lowers the cached spend", async () => {
    const { store, calls, data } = fakeStore({
      "organization:org": { budget: 10, spent: 1 },
      "key:key": { budget: null, spent: 0 },
    });
    let now = new Date("2026-11-23T10:00:00Z");
    const ledger = new BudgetLedger(store, 5000, () => now);
    await ledger.check(principal);
    ledger.add("org", "key", 2); // not yet written: the store still says 1
    data["organization:org"] = { budget: 4, spent: 1 };
    now = new Date(now.getTime() + 6000);
    await ledger.check(principal); // stale: answered from memory, refreshed in the background
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(4);
    expect(ledger.remaining(principal)).toBeCloseTo(1); // budget 4, spent max(3, 1)
  });

  it("starts a new month from the stored spend of that month", async () => {
    const { store, calls, data } = fakeStore({
      "organization:org": { budget: 1, spent: 1 },
      "key:key": { budget: null, spent: 0 },
    });
    let now = new Date("2026-11-30T23:59:59Z");
    const ledger = new BudgetLedger(store, 5000, () => now);
    await expect(ledger.check(principal)).rejects.toMatchObject({ status: 429 });
    data["organization:org"] = { budget: 1, spent: 0 };
    now = new Date("2026-12-01T00:00:01Z");
    await ledger.check(principal);
    expect(calls.at(-1)).toBe("key:key:2026-12");
    expect(ledger.remaining(principal)).toBe(1);
  });

  it("does not cache a failed first load", async () => {
    let fail = true;
    const ledger = new BudgetLedger({
      load: async () => {
        if (fail) throw new Error("db down");
        return { budget: null, spent: 0 };
      },
    });
    await expect(ledger.check(principal)).rejects.toThrow("db down");
    fail = false;
    await ledger.check(principal);
    expect(ledger.remaining(principal)).toBeNull();
  });
});
