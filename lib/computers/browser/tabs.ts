// Tab bookkeeping for one browser session. Headless pages all report "visible",
// so the session tracks the main (active) tab itself: the initial tab is
// `tab_main`, every later one `tab_<hex>`; a new or switched-to tab becomes
// main; when the main tab closes, the most recently active remaining tab does.
// Generic over the page type so it is unit tested without a browser.
import { randomBytes } from "node:crypto";
import { ActionError } from "@/lib/computers/actions/action-error";

export const MAIN_TAB_ID = "tab_main";

export function newTabId(): string {
  return `tab_${randomBytes(4).toString("hex")}`;
}

export class TabSet<P> {
  private readonly byId = new Map<string, P>();
  private readonly idOf = new Map<P, string>();
  /** Activation order, most recent last; the last one is main. */
  private readonly recency: string[] = [];
  /** tab_main names the session's first tab only, even after it closes. */
  private everHadMain = false;

  /** `limit`: the most tabs the session may have open (BROWSER_MAX_TABS_PER_SESSION). */
  constructor(readonly limit = Number.POSITIVE_INFINITY) {}

  /** Whether one more tab may open. */
  hasRoom(): boolean {
    return this.byId.size < this.limit;
  }

  /** Throws the 409 of a session at its tab limit (each tab is a renderer process). */
  assertRoom(): void {
    if (this.hasRoom()) return;
    throw new ActionError(
      "conflict",
      `This session has ${this.byId.size} tabs open, its limit (BROWSER_MAX_TABS_PER_SESSION is ${this.limit}); ` +
        `close one (close_tab) before opening another`,
    );
  }

  /** Adds a page (idempotent) and, unless told otherwise, makes it main. Returns its id. */
  add(page: P, options: { activate?: boolean } = {}): string {
    const existing = this.idOf.get(page);
    if (existing) return existing;
    const id = this.everHadMain ? newTabId() : MAIN_TAB_ID;
    this.everHadMain = true;
    this.byId.set(id, page);
    this.idOf.set(page, id);
    if (options.activate === false) this.recency.unshift(id);
    else this.recency.push(id);
    return id;
  }

  /** Forgets a closed page; returns the id of the main tab afterwards (undefined when none is left). */
  remove(page: P): string | undefined {
    const id = this.idOf.get(page);
    if (id) {
      this.idOf.delete(page);
      this.byId.delete(id);
      const at = this.recency.indexOf(id);
      if (at >= 0) this.recency.splice(at, 1);
    }
    return this.mainId();
  }

  activate(id: string): P | undefined {
    const page = this.byId.get(id);
    if (!page) return undefined;
    const at = this.recency.indexOf(id);
    if (at >= 0) this.recency.splice(at, 1);
    this.recency.push(id);
    return page;
  }

  get(id: string): P | undefined {
    return this.byId.get(id);
  }

  idFor(page: P): string | undefined {
    return this.idOf.get(page);
  }

  mainId(): string | undefined {
    return this.recency[this.recency.length - 1];
  }

  main(): { id: string; page: P } | undefined {
    const id = this.mainId();
    return id ? { id, page: this.byId.get(id)! } : undefined;
  }

  get size(): number {
    return this.byId.size;
  }

  /** In opening order. */
  list(): { id: string; page: P; isMain: boolean }[] {
    const main = this.mainId();
    return [...this.byId.entries()].map(([id, page]) => ({ id, page, isMain: id === main }));
  }
}

/** An action named a tab this session does not have. */
export function tabNotFound(tabId: string): never {
  throw new ActionError("tab_not_found", `Tab '${tabId}' not found in this session`, { param: "tab_id" });
}
