// What a session's CDP client may say to the shared pool Chromium, and what it
// may hear back (pure logic; CdpRelay applies it to one connection). The pool
// runs every session as a BrowserContext of a few browsers, so a raw DevTools
// connection would see and drive every session: this is an allow-list.
//
// The session's context is presented as the client's *default* context: a
// `browserContextId` a client sends must be absent or the session's (absent
// becomes the session's), `Target.getBrowserContexts` answers none, and targets
// of other contexts never appear. Playwright's connectOverCDP and Puppeteer's
// connect put targets of unknown contexts in their default context, so
// `browser.contexts()[0]` / `defaultBrowserContext()` is the session's context.

export interface CdpCommand {
  id: number;
  method: string;
  params?: Record<string, unknown>;
  sessionId?: string;
}

/** What the relay knows about its client's view (kept by CdpRelay). */
export interface CdpView {
  /** The session's BrowserContext id in the pool browser. */
  contextId: string;
  /** Child sessions this client attached to targets of its context. */
  ownsSession(sessionId: string): boolean;
  /** Sessions on the browser target (Target.attachToBrowserTarget): ruled like the connection itself. */
  isBrowserSession(sessionId: string): boolean;
  /** Window ids Browser.getWindowForTarget returned for its targets. */
  knowsWindow(windowId: number): boolean;
}

export type Decision =
  /** Send upstream (with `params` replaced when given); `requireTarget`: only if that target is in the context. */
  | { do: "forward"; params?: Record<string, unknown>; requireTarget?: string; result?: ResultFilter }
  /** Answer the client ourselves; `close`: then close the client's socket with this reason. */
  | { do: "reply"; result: Record<string, unknown>; close?: string }
  | { do: "refuse"; message: string };

/** How a forwarded command's result is adjusted before the client sees it. */
export type ResultFilter = "target_infos" | "attached_session" | "browser_session" | "window";

const NOT_ALLOWED = (method: string) =>
  `'${method}' is not available through a Cabin session's CDP endpoint (it would reach beyond this session's ` +
  `browser context)`;

/** Domains that describe or change the whole browser: refused even on the client's own page sessions. */
const BROWSER_WIDE_DOMAINS = new Set(["SystemInfo", "Tethering", "Extensions", "PWA", "BluetoothEmulation", "Cast"]);

/** Target methods that need nothing beyond the browserContextId rule. */
const TARGET_ALWAYS = new Set(["Target.setDiscoverTargets"]);
/** Target and Browser methods that name a target the client must own. */
const TARGET_BY_ID = new Set(["Target.activateTarget", "Target.closeTarget", "Target.autoAttachRelated"]);

export function decide(command: CdpCommand, view: CdpView): Decision {
  const { method } = command;
  const params = command.params ?? {};
  if (
    command.sessionId !== undefined &&
    !view.ownsSession(command.sessionId) &&
    !view.isBrowserSession(command.sessionId)
  ) {
    return { do: "refuse", message: `Session with given id not found.` };
  }
  // Browser-level: the connection itself or a browser-target session; otherwise a page/worker session of the client.
  const sessionId =
    command.sessionId !== undefined && view.isBrowserSession(command.sessionId) ? undefined : command.sessionId;
  const given = params.browserContextId;
  if (given !== undefined && given !== view.contextId) {
    return { do: "refuse", message: `browserContextId '${String(given)}' is not this session's browser context` };
  }
  const domain = method.split(".")[0];
  if (BROWSER_WIDE_DOMAINS.has(domain)) return { do: "refuse", message: NOT_ALLOWED(method) };
  if (domain === "Target") return decideTarget(method, params, view);
  if (domain === "Browser") return decideBrowser(method, params, sessionId, view);
  if (domain === "Storage" && sessionId === undefined) return decideBrowserStorage(method, params, view);
  // Any other domain exists only on the page/worker sessions this client owns.
  if (sessionId === undefined) return { do: "refuse", message: NOT_ALLOWED(method) };
  return { do: "forward" };
}

function withContext(params: Record<string, unknown>, contextId: string) {
  return { ...params, browserContextId: contextId };
}

function decideTarget(method: string, params: Record<string, unknown>, view: CdpView): Decision {
  if (TARGET_ALWAYS.has(method)) return { do: "forward" };
  if (TARGET_BY_ID.has(method)) return byTarget(params);
  switch (method) {
    case "Target.setAutoAttach":
      // The non-flat protocol would tunnel through Target.sendMessageToTarget, which is refused.
      if (params.flatten !== true)
        return { do: "refuse", message: "Target.setAutoAttach needs flatten: true on this endpoint" };
      return { do: "forward" };
    case "Target.getTargets":
      return { do: "forward", result: "target_infos" };
    case "Target.getTargetInfo":
      // Without a targetId it describes the caller's own target (the browser, or the client's page).
      return typeof params.targetId === "string" ? byTarget(params) : { do: "forward" };
    case "Target.attachToBrowserTarget":
      // A second browser-level session (Playwright's newCDPSession uses one); the relay rules it like the connection.
      return { do: "forward", result: "browser_session" };
    case "Target.getBrowserContexts":
      return { do: "reply", result: { browserContextIds: [] } };
    case "Target.createTarget":
      return { do: "forward", params: withContext(params, view.contextId) };
    case "Target.attachToTarget":
      if (typeof params.targetId !== "string")
        return { do: "refuse", message: "Target.attachToTarget needs a targetId" };
      return {
        do: "forward",
        params: { ...params, flatten: true },
        requireTarget: params.targetId,
        result: "attached_session",
      };
    case "Target.detachFromTarget":
      if (typeof params.sessionId === "string") {
        const mine = view.ownsSession(params.sessionId) || view.isBrowserSession(params.sessionId);
        return mine ? { do: "forward" } : { do: "refuse", message: "Session with given id not found." };
      }
      return byTarget(params);
    default:
      return { do: "refuse", message: NOT_ALLOWED(method) };
  }
}

function byTarget(params: Record<string, unknown>): Decision {
  if (typeof params.targetId !== "string") return { do: "refuse", message: "targetId is required" };
  return { do: "forward", requireTarget: params.targetId };
}

function decideBrowser(
  method: string,
  params: Record<string, unknown>,
  sessionId: string | undefined,
  view: CdpView,
): Decision {
  switch (method) {
    case "Browser.getVersion":
      return { do: "forward" };
    case "Browser.close":
      // The client's browser.close() ends its connection, never the session's browser.
      return { do: "reply", result: {}, close: "Browser.close: disconnected; the Cabin session keeps running" };
    case "Browser.setDownloadBehavior":
      // Downloads of the session are the service's; accepted and ignored so clients' set-up succeeds.
      return { do: "reply", result: {} };
    case "Browser.grantPermissions":
    case "Browser.resetPermissions":
    case "Browser.setPermission":
      return { do: "forward", params: withContext(params, view.contextId) };
    case "Browser.getWindowForTarget":
      if (typeof params.targetId === "string")
        return { do: "forward", requireTarget: params.targetId, result: "window" };
      return sessionId === undefined
        ? { do: "refuse", message: "Browser.getWindowForTarget needs a targetId" }
        : { do: "forward", result: "window" };
    case "Browser.getWindowBounds":
    case "Browser.setWindowBounds":
    case "Browser.setContentsSize":
      if (typeof params.windowId === "number" && view.knowsWindow(params.windowId)) return { do: "forward" };
      return { do: "refuse", message: `Browser window ${String(params.windowId)} is not one of this session's` };
    default:
      return { do: "refuse", message: NOT_ALLOWED(method) };
  }
}

function decideBrowserStorage(method: string, params: Record<string, unknown>, view: CdpView): Decision {
  switch (method) {
    case "Storage.getCookies":
    case "Storage.setCookies":
    case "Storage.clearCookies":
      return { do: "forward", params: withContext(params, view.contextId) };
    default:
      return { do: "refuse", message: NOT_ALLOWED(method) };
  }
}

interface TargetInfoLike {
  targetId?: string;
  browserContextId?: string;
}

/** True when an upstream targetInfo belongs to the session's context. */
export function inContext(info: unknown, contextId: string): boolean {
  return typeof info === "object" && info !== null && (info as TargetInfoLike).browserContextId === contextId;
}
