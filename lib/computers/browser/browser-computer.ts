// One browser session: a BrowserContext leased from the pool, its tabs, and
// the actions on them. Actions and screenshots of a session go through one
// ActionQueue (one at a time, bounded); stop() does not wait for them.
import type { BrowserContextOptions, Page } from "playwright-core";
import { ActionError, isActionError } from "@/lib/computers/actions/action-error";
import { ActionQueue } from "@/lib/computers/actions/action-queue";
import type {
  ActionOutcome,
  ComputerEvents,
  ComputerHandle,
  DriverAction,
  PageContext,
  SavedState,
  Screenshot,
  ScreenshotOptions,
  StartSpec,
  Viewport,
  CdpCapability,
} from "@/lib/computers/driver";
import { getEnv } from "@/lib/env";
import { DEFAULT_VIEWPORT, type BrowserPool, type Lease } from "@/lib/computers/browser/pool";
import { navigate, runPageAction, type PageAction } from "@/lib/computers/browser/page-actions";
import { egressProxyOf } from "@/lib/computers/browser/egress-context";
import { BrowserLiveInput } from "@/lib/computers/browser/live-input";
import { browserScreencast } from "@/lib/computers/browser/screencast";
import { TabSet, tabNotFound } from "@/lib/computers/browser/tabs";
import { fitsStandby, takeReserved } from "@/lib/computers/browser/standby-reservation";
import { PageFiles } from "@/lib/computers/browser/page-files";
import { poolCdpCapability } from "@/lib/computers/browser/cdp-target";
import { firstLine, readDocument, readPageContext } from "@/lib/computers/browser/page-reading";

// Hides the most common automation tell; `stealth` is otherwise a stored flag for now.
const STEALTH_SCRIPT =
  "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });";

export class BrowserComputer implements ComputerHandle {
  readonly kind = "browser" as const;
  private readonly tabs = new TabSet<Page>(getEnv().BROWSER_MAX_TABS_PER_SESSION);
  private stopping: Promise<SavedState | null> | null = null;
  private readonly queue = new ActionQueue(getEnv().ACTION_TIMEOUT_SECONDS * 1000);
  private reopening: Promise<unknown> | null = null;
  /** The session's DevTools endpoint: its context in the pool browser (`poolCdpCapability`). */
  readonly cdp: CdpCapability;
  /** The live view (`ScreencastHub`): frames of and input to the main tab. */
  readonly screencast = browserScreencast(() => (this.stopping ? undefined : this.tabs.main()?.page));
  readonly liveInput = new BrowserLiveInput(() => (this.stopping ? undefined : this.tabs.main()?.page));
  /** File choosers answered with the session's uploads, downloads kept as its files (docs/files.md). */
  private pageFiles!: PageFiles;

  private constructor(
    readonly id: string,
    private readonly pool: BrowserPool,
    private readonly lease: Lease,
    private viewport: Viewport,
    /** The viewport new pages get from the context; others are resized on arrival. */
    private readonly contextViewport: { width: number; height: number },
  ) {
    this.cdp = poolCdpCapability(lease.slot.launchId, lease.context);
  }

  static async open(pool: BrowserPool, spec: StartSpec, events: ComputerEvents): Promise<BrowserComputer> {
    const size = { width: spec.viewport.width, height: spec.viewport.height };
    const options: BrowserContextOptions = { viewport: size, deviceScaleFactor: spec.viewport.scale };
    if (spec.proxy) options.proxy = { ...spec.proxy };
    if (spec.restore) options.storageState = JSON.parse(spec.restore.data.toString("utf8"));
    // Set aside before the create (StandbyReservation), or one made ready while it waited for a start slot.
    const ready = takeReserved(spec) ?? (fitsStandby(spec) ? pool.takeStandby(spec.organizationId, false) : undefined);
    const lease = await pool.acquire(options, spec.organizationId, ready);
    try {
      const computer = new BrowserComputer(
        spec.id,
        pool,
        lease,
        spec.viewport,
        lease.fromStandby ? DEFAULT_VIEWPORT : size,
      );
      await computer.init(spec, events);
      return computer;
    } catch (err) {
      await pool.release(lease);
      throw err;
    }
  }

  private async init(spec: StartSpec, events: ComputerEvents) {
    const { context, page } = this.lease;
    if (spec.stealth) await context.addInitScript(STEALTH_SCRIPT);
    this.pageFiles = await PageFiles.open(spec, context, page);
    context.on("page", (p) => this.adopt(p));
    this.adopt(page);
    if (this.needsResize()) await page.setViewportSize({ width: this.viewport.width, height: this.viewport.height });
    this.pool.watch(this.lease, () => events.onExit("the Chromium process running this session died"));
  }

  private needsResize(): boolean {
    return this.viewport.width !== this.contextViewport.width || this.viewport.height !== this.contextViewport.height;
  }

  /** Every page of the context becomes a tab, including popups and target=_blank. */
  private adopt(page: Page) {
    if (this.stopping || this.tabs.idFor(page)) return;
    // A popup (window.open, CDP's Target.createTarget) past the tab limit is closed at once.
    if (!this.tabs.hasRoom()) return void page.close().catch(() => {});
    this.tabs.add(page);
    this.pageFiles.watch(page);
    page.on("close", () => this.onPageClosed(page));
    if (this.needsResize()) {
      page.setViewportSize({ width: this.viewport.width, height: this.viewport.height }).catch(() => {});
    }
  }

  private onPageClosed(page: Page) {
    this.tabs.remove(page);
    // The page closed itself (window.close()): keep the session usable with a blank tab.
    if (this.tabs.size === 0 && !this.stopping && !this.reopening) {
      this.reopening = this.lease.context
        .newPage()
        .catch(() => {})
        .finally(() => (this.reopening = null));
    }
  }

  private async mainPage(tabId?: string): Promise<{ id: string; page: Page }> {
    if (tabId) {
      return { id: tabId, page: this.tabs.get(tabId) ?? tabNotFound(tabId) };
    }
    if (!this.tabs.size && this.reopening) await this.reopening;
    const main = this.tabs.main();
    if (!main) throw new ActionError("failed", "This session has no open tab");
    return main;
  }

  private pageContext(id: string, page: Page): Promise<PageContext> {
    return readPageContext(page, { tabId: id, isMain: id === this.tabs.mainId(), viewport: this.viewport });
  }

  /** Runs `fn` after the session's previous action, mapping Playwright's errors to ActionError("failed"). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      if (this.stopping) throw new ActionError("failed", "The session is ending");
      try {
        return await fn();
      } catch (err) {
        if (isActionError(err)) throw err;
        throw new ActionError("failed", firstLine(err), { cause: err });
      }
    });
  }

  act(action: DriverAction): Promise<ActionOutcome> {
    return this.serial(() => this.dispatch(action));
  }

  private async dispatch(action: DriverAction): Promise<ActionOutcome> {
    switch (action.type) {
      case "list_tabs":
        return { result: { tabs: await this.listTabs() } };
      case "new_tab":
        return this.newTab(action.url);
      case "switch_tab": {
        const page = this.tabs.activate(action.tab_id) ?? tabNotFound(action.tab_id);
        await page.bringToFront();
        return {
          result: { active_tab: action.tab_id },
          executedTabId: action.tab_id,
          pageContext: await this.pageContext(action.tab_id, page),
        };
      }
      case "close_tab": {
        const page = this.tabs.get(action.tab_id) ?? tabNotFound(action.tab_id);
        if (this.tabs.size <= 1) {
          throw new ActionError(
            "last_tab",
            `Tab '${action.tab_id}' is the last open tab of this session; open another tab before closing it, ` +
              `or end the session with DELETE /computers/${this.id}`,
          );
        }
        await page.close();
        const active = this.tabs.remove(page);
        return { result: { closed_tab: action.tab_id, active_tab: active ?? null } };
      }
      case "set_viewport":
        return this.setViewport(action.width, action.height, action.scale_factor);
      case "change_proxy":
        return this.changeProxy(action.proxy_url);
      case "set_files":
        return { result: await this.pageFiles.choose(action.file_ids) };
      default: {
        const { id, page } = await this.mainPage(action.tab_id);
        const result = await runPageAction(page, action as PageAction, egressProxyOf(this.lease.context));
        return { result, executedTabId: id, pageContext: await this.pageContext(id, page) };
      }
    }
  }

  private async listTabs() {
    return Promise.all(
      this.tabs.list().map(async ({ id, page, isMain }) => ({
        tab_id: id,
        url: page.url(),
        is_main: isMain,
        title: (await readDocument(page))?.title ?? "",
      })),
    );
  }

  private async newTab(url?: string): Promise<ActionOutcome> {
    this.tabs.assertRoom();
    const page = await this.lease.context.newPage();
    const id = this.tabs.add(page); // usually already adopted through the context's "page" event
    this.tabs.activate(id);
    const result: Record<string, unknown> = { created_tab_id: id };
    if (url) {
      try {
        await navigate(page, url, egressProxyOf(this.lease.context));
      } catch (err) {
        result.navigation_error = firstLine(err);
      }
    }
    return { result, executedTabId: id, pageContext: await this.pageContext(id, page) };
  }

  /** Routes the context's traffic through another proxy (or direct): the same context, so cookies, storage and tabs stay. */
  private async changeProxy(proxyUrl: string | null): Promise<ActionOutcome> {
    const egress = egressProxyOf(this.lease.context);
    if (!egress) {
      throw new ActionError(
        "not_supported",
        "This session goes through the operator's advanced proxy (use_advanced_proxy), which change-proxy does not replace",
        { param: "proxy_url" },
      );
    }
    const problem = await egress.setUpstream(proxyUrl);
    if (problem?.kind === "refused")
      throw new ActionError("invalid", `proxy_url: ${problem.reason}`, { param: "proxy_url" });
    if (problem)
      throw new ActionError("failed", `proxy_url: ${problem.error} (the proxy's host)`, { param: "proxy_url" });
    const main = await this.mainPage();
    return {
      result: { proxy: egress.upstreamLabel },
      executedTabId: main.id,
      pageContext: await this.pageContext(main.id, main.page),
    };
  }

  private async setViewport(width: number, height: number, scale?: number): Promise<ActionOutcome> {
    if (scale !== undefined && scale !== this.viewport.scale) {
      throw new ActionError("not_supported", "scale_factor of a browser session is fixed at creation (display.scale)", {
        param: "scale_factor",
      });
    }
    this.viewport = { ...this.viewport, width, height };
    await Promise.all(this.tabs.list().map(({ page }) => page.setViewportSize({ width, height })));
    const main = await this.mainPage();
    return {
      result: { width, height, scale_factor: this.viewport.scale },
      executedTabId: main.id,
      pageContext: await this.pageContext(main.id, main.page),
    };
  }

  screenshot(options: ScreenshotOptions): Promise<Screenshot> {
    return this.serial(async () => {
      const { id, page } = await this.mainPage(options.tabId);
      const data = await page.screenshot({
        type: options.format,
        quality: options.format === "jpeg" ? (options.quality ?? 80) : undefined,
        timeout: 15_000,
      });
      return {
        data,
        mime: options.format === "jpeg" ? "image/jpeg" : "image/png",
        executedTabId: id,
        pageContext: await this.pageContext(id, page),
      };
    });
  }

  async snapshot(): Promise<SavedState> {
    return {
      kind: "browser",
      data: Buffer.from(JSON.stringify(await this.lease.context.storageState({ indexedDB: true }))),
    };
  }

  stop(options: { saveState: boolean }): Promise<SavedState | null> {
    this.stopping ??= (async () => {
      let state: SavedState | null = null;
      if (options.saveState) state = await this.snapshot();
      return state;
    })().finally(() =>
      this.screencast.stopAll().then(() => this.pageFiles.close().finally(() => this.pool.release(this.lease))),
    );
    return this.stopping;
  }

  resources() {
    return { contexts: 1, pages: this.lease.context.pages().length, screencasts: this.screencast.active };
  }
}
