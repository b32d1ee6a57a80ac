// @needs nothing
import { describe, expect, it } from "vitest";
import { MAIN_TAB_ID, TabSet } from "@/lib/computers/browser/tabs";

describe("TabSet", () => {
  it("names the first tab tab_main and later ones tab_<hex>; new tabs become main", () => {
    const tabs = new TabSet<object>();
    const a = {},
      b = {},
      c = {};
    expect(tabs.add(a)).toBe(MAIN_TAB_ID);
    const idB = tabs.add(b);
    expect(idB).toMatch(/^tab_[0-9a-f]{8}$/);
    expect(tabs.add(b)).toBe(idB); // idempotent
    expect(tabs.mainId()).toBe(idB);
    const idC = tabs.add(c, { activate: false });
    expect(tabs.mainId()).toBe(idB);
    expect(tabs.list().map((t) => [t.id, t.isMain])).toEqual([
      [MAIN_TAB_ID, false],
      [idB, true],
      [idC, false],
    ]);
  });

  it("switching makes a tab main; closing main falls back to the most recently active", () => {
    const tabs = new TabSet<object>();
    const a = {},
      b = {},
      c = {};
    tabs.add(a);
    const idB = tabs.add(b);
    const idC = tabs.add(c);
    expect(tabs.activate(MAIN_TAB_ID)).toBe(a);
    expect(tabs.activate("tab_nope")).toBeUndefined();
    expect(tabs.remove(a)).toBe(idC);
    expect(tabs.remove(c)).toBe(idB);
    expect(tabs.size).toBe(1);
    expect(tabs.remove(b)).toBeUndefined();
    // tab_main names only the first tab of a session, even after it closed.
    expect(tabs.add({})).not.toBe(MAIN_TAB_ID);
  });
});
