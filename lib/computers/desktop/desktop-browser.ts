// Browser actions on a desktop (docs/desktop-browsing.md): go_to_url, get_html_content
// and the tab actions, done in the desktop's own Chromium (`launchDesktopChromium`),
// which the first of them starts. Results have the browser sessions' shapes; tabs are
// the window's tabs, `tab_main` the first one. A person closing the window (or
// Chromium dying) ends that browser; the next browser action starts a new one.
// Callers serialize calls (DesktopComputer's ActionQueue).
import type { BrowserContext, Page } from "playwright-core";
import { ActionError, isActionError } from "@/lib/computers/actions/action-error";
import type { ActionOf } from "@/lib/computers/actions/actions";
import { navigate } from "@/lib/computers/browser/page-actions";
import { TabSet } from "@/lib/computers/browser/tabs";
import type { ActionOutcome, DriverAction, FillLoginAction, PageContext, ScreenContext } from "@/lib/computers/driver";
import { fillLoginForm } from "@/lib/computers/browser/login-form";
import { launchDesktopChromium } from "@/lib/computers/desktop/desktop-chromium";
import { getLogger } from "@/lib/logger";

const DESKTOP_BROWSER_ACTIONS = [
  "go_to_url",
  "get_html_content",
  "list_tabs",
  "new_tab",
  "switch_tab",
  "close_tab",
] as const;
export type DesktopBrowserAction = ActionOf<(typeof DESKTOP_BROWSER_ACTIONS)[number]> | FillLoginAction;

export function isDesktopBrowserAction(action: DriverAction): action is DesktopBrowserAction {
  return action.type === "fill_login" || (DESKTOP_BROWSER_ACTIONS as readonly string[]).includes(action.type);
}

// Measured 16–20 s on a 2-core machine under a load average of 30 (close: 2–3 s).
const LAUNCH_TIMEOUT_MS = 60_000;
const TITLE_TIMEOUT_MS = 500;

interface Running {
  context: BrowserContext;
  tabs: TabSet<Page>;
}

export class DesktopBrowser {
  private running: Running | null = null;
  /** A start in progress: an action that timed out waiting for it must not make a later one start a second Chromium. */
  private starting: Promise<Running> | null = null;
  private closing = false;

  constructor(
    private readonly pid1: number,
    private readonly sessionDir: string,
    /** The screen's size: coordinates of every action are screen pixels, also for the browser's window. */
    private readonly screen: () => ScreenContext,
  ) {}

  get openTabs(): number {
    return this.running?.tabs.size ?? 0;
  }

  async act(action: DesktopBrowserAction): Promise<ActionOutcome> {
    try {
      return await this.dispatch(action);
    } catch (err) {
      if (isActionError(err)) throw err;
      throw new ActionError("failed", firstLine(err), { cause: err });
    }
  }

  private async dispatch(action: DesktopBrowserAction): Promise<ActionOutcome> {
    switch (action.type) {
      case "list_tabs":
        // Listing does not start a browser: none open is simply no tabs.
        return { result: { tabs: this.running ? await this.listTabs(this.running) : [] } };
      case "new_tab":
        return this.newTab(action.url);
      case "switch_tab": {
        const running = this.runningOrNoTab(action.tab_id);
        const page = running.tabs.activate(action.tab_id);
        if (!page) throw tabNotFound(action.tab_id);
        await page.bringToFront();
        return {
          result: { active_tab: action.tab_id },
          executedTabId: action.tab_id,
          pageContext: await this.pageContext(running, action.tab_id, page),
        };
      }
      case "close_tab": {
        const running = this.runningOrNoTab(action.tab_id);
        const page = running.tabs.get(action.tab_id);
        if (!page) throw tabNotFound(action.tab_id);
        if (running.tabs.size <= 1) {
          throw new ActionError(
            "last_tab",
            `Tab '${action.tab_id}' is the last open tab of this desktop's browser; open another tab before closing it`,
          );
        }
        await page.close();
        const active = running.tabs.remove(page);
        if (active) await running.tabs.get(active)?.bringToFront();
        return { result: { closed_tab: action.tab_id, active_tab: active ?? null } };
      }
      case "go_to_url": {
        const running = await this.ensureRunning();
        const { id, page } = this.tab(running, action.tab_id);
        const result = await navigate(page, action.url);
        return { result, executedTabId: id, pageContext: await this.pageContext(running, id, page) };
      }
      case "fill_login": {
        // The desktop's own Chromium, driven over CDP like its other browser actions (docs/desktop-browsing.md).
        if (!this.running)
          throw new ActionError(
            "failed",
            "No browser is open on this desktop: navigate (go_to_url) to the login page first",
          );
        const running = this.running;
        const { id, page } = this.tab(running, action.tab_id);
        return {
          result: await fillLoginForm(page, action),
          executedTabId: id,
          pageContext: await this.pageContext(running, id, page),
        };
      }
      case "get_html_content": {
        if (!this.running)
          throw new ActionError("failed", "No browser is open on this desktop: navigate (go_to_url) opens one");
        const running = this.running;
        const { id, page } = this.tab(running, action.tab_id);
        return {
          result: { html_content: await page.content() },
          executedTabId: id,
          pageContext: await this.pageContext(running, id, page),
        };
      }
    }
  }

  private runningOrNoTab(tabId: string): Running {
    if (!this.running) throw tabNotFound(tabId);
    return this.running;
  }

  private tab(running: Running, tabId?: string): { id: string; page: Page } {
    if (tabId) {
      const page = running.tabs.get(tabId);
      if (!page) throw tabNotFound(tabId);
      return { id: tabId, page };
    }
    const main = running.tabs.main();
    if (!main) throw new ActionError("failed", "This desktop's browser has no open tab");
    return main;
  }

  private ensureRunning(): Promise<Running> {
    if (this.running) return Promise.resolve(this.running);
    if (this.closing) return Promise.reject(new ActionError("failed", "The desktop is stopping"));
    this.starting ??= this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  private async start(): Promise<Running> {
    const started = performance.now();
    const context = await launchDesktopChromium({
      pid1: this.pid1,
      sessionDir: this.sessionDir,
      timeoutMs: LAUNCH_TIMEOUT_MS,
    });
    const running: Running = { context, tabs: new TabSet<Page>() };
    const adopt = (page: Page) => {
      if (running.tabs.idFor(page)) return;
      running.tabs.add(page);
      page.on("close", () => running.tabs.remove(page));
    };
    for (const page of context.pages()) adopt(page);
    context.on("page", adopt);
    context.on("close", () => {
      if (this.running === running) this.running = null;
    });
    if (this.closing) {
      await context.close().catch(() => {});
      throw new ActionError("failed", "The desktop is stopping");
    }
    this.running = running;
    getLogger().info(
      { sessionDir: this.sessionDir, ms: Math.round(performance.now() - started) },
      "desktop Chromium started",
    );
    return running;
  }

  private async listTabs(running: Running) {
    return Promise.all(
      running.tabs.list().map(async ({ id, page, isMain }) => ({
        tab_id: id,
        url: page.url(),
        is_main: isMain,
        title: await titleOf(page),
      })),
    );
  }

  private async newTab(url?: string): Promise<ActionOutcome> {
    const fresh = !this.running;
    const running = await this.ensureRunning();
    // A browser started for this call already has its first, blank tab: that one is the new tab.
    const page = fresh && running.tabs.size === 1 ? running.tabs.main()!.page : await running.context.newPage();
    const id = running.tabs.add(page);
    running.tabs.activate(id);
    await page.bringToFront();
    const result: Record<string, unknown> = { created_tab_id: id };
    if (url) {
      try {
        await navigate(page, url);
      } catch (err) {
        result.navigation_error = firstLine(err);
      }
    }
    return { result, executedTabId: id, pageContext: await this.pageContext(running, id, page) };
  }

  /**
   * The tab's page_context in the public SDK's names; its sizes are the screen's (actions' coordinates are screen
   * pixels).
   */
  private async pageContext(running: Running, id: string, page: Page): Promise<PageContext> {
    const screen = this.screen();
    return {
      url: page.url(),
      title: await titleOf(page),
      tab_id: id,
      is_main_tab: id === running.tabs.mainId(),
      ...screen,
      viewport_w: screen.viewport_width,
      viewport_h: screen.viewport_height,
    };
  }

  /** Closes Chromium the way its window's close does (its profile is written), bounded by `timeoutMs`. Idempotent. */
  async close(timeoutMs: number): Promise<void> {
    this.closing = true;
    const running = this.running;
    this.running = null;
    if (!running) return;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([running.context.close().catch(() => {}), timeout]);
  }
}

function tabNotFound(tabId: string): ActionError {
  return new ActionError("tab_not_found", `Tab '${tabId}' not found in this session`, { param: "tab_id" });
}

/** The title, or "" when the page does not answer soon (a dialog, a busy script). */
async function titleOf(page: Page): Promise<string> {
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve(""), TITLE_TIMEOUT_MS).unref());
  return Promise.race([page.title().catch(() => ""), timeout]);
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // Playwright appends call logs after the first line; they can be long and name internals.
  return message
    .split("\n")[0]
    .replace(/^[a-zA-Z.]+: /, "")
    .slice(0, 500);
}
