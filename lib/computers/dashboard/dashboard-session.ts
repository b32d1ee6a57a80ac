// The dashboard's session page (/sessions/{id}): one session of the member's
// organization with what the page needs (its live-view endpoints, display,
// lifetime settings and open tabs, against the server's clock), and the tab
// operations through the same action-service functions as /computers/{id}/tabs,
// organization-scoped via the member (a foreign id is a 404).
import { isAppError } from "@/lib/api/errors";
import type { Member } from "@/lib/auth/member";
import { getDb } from "@/lib/db";
import { findOwnedComputer } from "@/lib/computers/sessions/access";
import {
  closeTab,
  createTab,
  executeAction,
  listTabs,
  switchTab,
  type ActionCall,
} from "@/lib/computers/actions/action-service";
import { DASHBOARD_SESSION_INCLUDE, withTasks, type DashboardSession } from "@/lib/computers/dashboard/dashboard";
import { sessionEndpoints, type SessionEndpoints } from "@/lib/computers/endpoints";
import { getSessionManager } from "@/lib/computers/registry";
import { finalScreenshotRef, type FinalScreenshotRef } from "@/lib/computers/dashboard/session-review";
import { AppError } from "@/lib/api/errors";

/** One open tab of a live browser session. */
export interface SessionTab {
  id: string;
  url: string;
  title: string;
  active: boolean;
}

/** GET /api/sessions/{id} (snake_case JSON). */
export interface SessionDetail extends DashboardSession {
  /** The server's clock when this was read: countdowns run against it. */
  now: string;
  /** As on the public session object: `ws` (with a live-view token) and `cdp` where offered. */
  endpoints: SessionEndpoints;
  /** The display in pixels (frames of the live view have this size). */
  viewport: { width: number; height: number };
  last_activity_at: string;
  idle_timeout_seconds: number;
  max_lifetime_seconds: number;
  environment_id: string | null;
  /**
   * Open tabs of a live browser session on this host; null for desktops, ended sessions, or when the browser did not
   * answer in time.
   */
  tabs: SessionTab[] | null;
  /**
   * An ended session's last screen (GET /api/sessions/{id}/final-screenshot); null while live, after a crash or once
   * swept.
   */
  final_screenshot: FinalScreenshotRef | null;
}

// The page polls every 2 s; a tab list stuck behind a slow action (a navigation) must not hold the poll.
const TABS_READ_TIMEOUT_MS = 1_500;

/**
 * The open tabs, read straight from the running handle: no reachSession, so the page's
 * polling is not activity (like GET /computers/{id}) and never keeps a session alive.
 */
async function readTabs(id: string): Promise<SessionTab[] | null> {
  const live = getSessionManager().get(id);
  const handle = live?.handle;
  if (!handle || handle.kind !== "browser") return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), TABS_READ_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([handle.act({ type: "list_tabs" }), timeout]);
    if (!outcome) return null;
    const tabs = (outcome.result?.tabs ?? []) as { tab_id: string; url: string; title: string; is_main: boolean }[];
    return tabs.map((t) => ({ id: t.tab_id, url: t.url, title: t.title, active: t.is_main }));
  } catch {
    // Ending or crashed: the next poll shows the terminated row.
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export async function readSessionDetail(member: Member, id: string, origin: string): Promise<SessionDetail> {
  const owned = await findOwnedComputer(member, id);
  const row = await getDb().computer.findUniqueOrThrow({
    where: { id: owned.id },
    include: DASHBOARD_SESSION_INCLUDE,
  });
  const live = row.status !== "terminated" && row.hostId === getSessionManager().hostId;
  const tabs = live && row.kind === "browser" ? await readTabs(row.id) : null;
  const [shown] = await withTasks(row.organizationId, [row]);
  return {
    ...shown!,
    now: new Date().toISOString(),
    endpoints: sessionEndpoints(row, origin),
    viewport: { width: row.displayWidth, height: row.displayHeight },
    last_activity_at: row.lastActivityAt.toISOString(),
    idle_timeout_seconds: row.inactivityTimeoutSeconds,
    max_lifetime_seconds: row.maxLifetimeSeconds,
    environment_id: row.environmentId,
    tabs,
    final_screenshot: row.status === "terminated" ? await finalScreenshotRef(row.id) : null,
  };
}

/** What a tab route of the dashboard passes: the member's organization stands in for an API key's. */
export interface DashboardTabCall {
  member: Member;
  id: string;
  requestId: string;
  origin: string;
}

function actionCallOf(call: DashboardTabCall): ActionCall {
  return {
    principal: { organizationId: call.member.organizationId },
    id: call.id,
    requestId: call.requestId,
    baseUrl: call.origin,
  };
}

export function listSessionTabsAs(call: DashboardTabCall) {
  return listTabs(actionCallOf(call));
}

/** Body `{url?}`, as POST /computers/{id}/tabs. */
export function openSessionTabAs(call: DashboardTabCall & { body: unknown }) {
  return createTab({ ...actionCallOf(call), body: call.body });
}

export function switchSessionTabAs(call: DashboardTabCall & { tabId: string }) {
  return switchTab({ ...actionCallOf(call), tabId: call.tabId });
}

const HISTORY_DIRECTIONS = ["back", "forward"];

/**
 * Body `{url}`: go_to_url in tab `tabId` (the page's address field navigates the current tab, not a new one).
 * Body `{history: "back"|"forward"}`: the tab's Back or Forward, as the mouse's history buttons do it (a click
 * with `button: "back"|"forward"`, lib/computers/browser/history-buttons.ts).
 */
export function navigateSessionTabAs(call: DashboardTabCall & { tabId: string; body: unknown }) {
  const body = (call.body ?? {}) as { url?: unknown; history?: unknown };
  if (body.history !== undefined) {
    if (body.url !== undefined) throw new AppError("invalid_request", "Send either url or history, not both");
    if (typeof body.history !== "string" || !HISTORY_DIRECTIONS.includes(body.history))
      throw new AppError("invalid_request", "history must be back or forward");
    return executeAction({
      ...actionCallOf(call),
      body: { action: { type: "click", x: 0, y: 0, button: body.history, tab_id: call.tabId } },
    });
  }
  return executeAction({
    ...actionCallOf(call),
    // The action's own schema checks the URL (and names `url` when it is bad); tab_id picks the tab.
    body: { action: { type: "go_to_url", url: body.url, tab_id: call.tabId } },
  });
}

/** Closing the last tab is refused (409 with the driver's reason), as on the public API. */
export function closeSessionTabAs(call: DashboardTabCall & { tabId: string }) {
  return closeTab({ ...actionCallOf(call), tabId: call.tabId });
}

/**
 * Whether the member's organization has session `id` (its page answers 404 when not); other failures are the page's to
 * show.
 */
export async function sessionExistsFor(member: Member, id: string): Promise<boolean> {
  try {
    await findOwnedComputer(member, id);
    return true;
  } catch (err) {
    if (isAppError(err) && err.code === "not_found") return false;
    throw err;
  }
}
