// Actions on a running session: the generic dispatcher (POST /execute, /batch,
// the per-action paths of docs/contract.md "Actions"), tabs (docs/contract.md "Tabs" with their
// exact shapes), screenshots and navigation. Every call counts as activity, and
// each is published on the session's events (action_request, action_response).
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import type { ApiPrincipal } from "@/lib/auth/api-keys";
import { findOwnedComputer, reachSession, type Reached } from "@/lib/computers/sessions/access";
import { parseAction, type Action, type ActionInput, type ActionOf } from "@/lib/computers/actions/actions";
import type { ActionOutcome } from "@/lib/computers/driver";
import { withActionEvents } from "@/lib/computers/events/events-service";
import { runDebug } from "@/lib/computers/actions/debug-service";
import { loginToFill } from "@/lib/computers/actions/fill-credentials";
import { asActionResult, asAppError, type ActionResult } from "@/lib/computers/actions/failures";
import { getSessionManager } from "@/lib/computers/registry";
import { screenshotUrl } from "@/lib/computers/screenshots/screenshot-links";
import type { ScreenshotRef } from "@/lib/computers/screenshots/screenshot-token";
import { storeScreenshot } from "@/lib/computers/screenshots/screenshots";
import { timeAction } from "@/lib/metrics/registry";

export interface ActionCall {
  /**
   * Only the organization matters here: an API key's, or a dashboard member's
   * (lib/computers/dashboard/dashboard-session.ts).
   */
  principal: Pick<ApiPrincipal, "organizationId">;
  id: string;
  requestId: string;
  /** Origin for screenshot URLs (publicOrigin of the request). */
  baseUrl: string;
}

function success(call: ActionCall, outcome: ActionOutcome): ActionResult {
  return {
    status: "success",
    request_id: call.requestId,
    ...(outcome.executedTabId ? { executed_tab_id: outcome.executedTabId } : {}),
    timestamp: new Date().toISOString(),
    ...(outcome.result ? { result: outcome.result } : {}),
    ...(outcome.pageContext ? { page_context: outcome.pageContext } : {}),
  };
}

/** What a session's kind cannot take, refused before anything runs (a batch is refused whole). */
function assertKindAllows(reached: Reached, action: Action) {
  if (action.type === "debug" && !reached.handle.exec) {
    throw new AppError(
      "invalid_request",
      `debug runs a shell command, and '${reached.row.id}' is a ${reached.row.kind} session, which has no shell ` +
        `(a context in Cabin's shared Chromium); run commands in a desktop session`,
      { param: "type", detail: "desktop_only" },
    );
  }
}

/**
 * Runs one parsed action on a reached session; failed actions become status "error".
 * `wait`, `screenshot` and `debug` are the same for every kind, so they are done here: a
 * wait is a pause between this request's actions, a screenshot is the handle's, and debug
 * runs through the exec capability (runDebug).
 */
async function perform(
  call: ActionCall,
  reached: Reached,
  action: Action,
  stored?: (ref: ScreenshotRef) => void,
): Promise<ActionResult> {
  assertKindAllows(reached, action);
  const announce = { sessionId: reached.live.id, requestId: call.requestId, action };
  return timeAction(action.type, () =>
    withActionEvents(getSessionManager().events, announce, () => runAction(call, reached, action, stored)),
  );
}

async function runAction(
  call: ActionCall,
  reached: Reached,
  action: Action,
  stored?: (ref: ScreenshotRef) => void,
): Promise<ActionResult> {
  try {
    if (action.type === "wait") {
      await new Promise((resolve) => setTimeout(resolve, action.ms));
      return success(call, {});
    }
    if (action.type === "debug") return success(call, await runDebug(reached.handle, action));
    if (action.type === "fill_credentials")
      return success(call, await reached.handle.act(await loginToFill(call.principal.organizationId, action)));
    if (action.type === "screenshot") {
      const shot = await reached.handle.screenshot({
        format: action.format,
        quality: action.quality,
        tabId: action.tab_id,
      });
      let result: Record<string, unknown>;
      if (action.base64) result = { screenshot: shot.data.toString("base64"), mime_type: shot.mime };
      else {
        const ref = { computerId: call.id, name: await storeScreenshot(call.id, shot.data, shot.mime) };
        stored?.(ref);
        result = { screenshot_url: screenshotUrl(call.baseUrl, ref), mime_type: shot.mime };
      }
      return success(call, { result, executedTabId: shot.executedTabId, pageContext: shot.pageContext });
    }
    return success(call, await reached.handle.act(action));
  } catch (err) {
    return asActionResult(err, call, reached.live);
  }
}

export const executeBody = z.strictObject({ action: z.unknown() });

/** A body that is itself an action (`{type, …}`, no `action` member): older clients send that to /execute. */
function isBareAction(body: unknown): body is Record<string, unknown> {
  return (
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    !("action" in body) &&
    typeof (body as { type?: unknown }).type === "string"
  );
}

/**
 * POST /computers/{id}/execute: `{action: {type, …}}` (a bare action object is accepted too); unknown fields are 400s.
 */
export async function executeAction(call: ActionCall & { body: unknown }): Promise<ActionResult> {
  const action = isBareAction(call.body)
    ? parseAction(call.body, "")
    : parseAction(parseWith(executeBody, call.body).action);
  return perform(call, await reachSession(call.principal, call.id), action);
}

/** What an in-process client gets back from one action: the answer /execute gives, and a stored screenshot's id. */
export interface ActOutcome {
  result: ActionResult;
  /** The screenshot this action stored (a `screenshot` action without base64), by id. */
  screenshot: ScreenshotRef | null;
}

/**
 * `actOn` for an action from outside the program (an agent model's answer): checked as /execute checks one,
 * a bad one the same 400 naming `action.<field>`.
 */
export async function actOnUnchecked(call: ActionCall & { action: unknown }): Promise<ActOutcome> {
  const action = parseAction(call.action);
  let screenshot: ScreenshotRef | null = null;
  const result = await perform(call, await reachSession(call.principal, call.id), action, (ref) => (screenshot = ref));
  return { result, screenshot };
}

/** The typed command behind /execute for in-process clients (MCP, agent tasks): an action as its schema takes it. */
export const actOn: (call: ActionCall & { action: ActionInput }) => Promise<ActOutcome> = actOnUnchecked;

export const batchBody = z.strictObject({ actions: z.array(z.unknown()).min(1).max(100) });

/** POST /computers/{id}/batch: runs in order, stops at the first failure. */
export async function executeBatch(call: ActionCall & { body: unknown }) {
  const { actions } = parseWith(batchBody, call.body);
  const parsed = actions.map((a, i) => parseAction(a, `actions[${i}]`));
  const reached = await reachSession(call.principal, call.id);
  // Refused whole before anything runs: a batch is never left half done by an action this kind cannot take.
  for (const action of parsed) assertKindAllows(reached, action);
  const results: ActionResult[] = [];
  for (const action of parsed) {
    const result = await perform(call, reached, action);
    results.push(result);
    if (result.status === "error") break;
  }
  const failed = results.find((r) => r.status === "error");
  return {
    status: failed ? "error" : "success",
    ...(failed ? { error_message: failed.error_message } : {}),
    request_id: call.requestId,
    timestamp: new Date().toISOString(),
    results,
  };
}

// The per-action paths of docs/contract.md "Actions" → action types (the body is the action's fields).
const NAMED_ACTIONS: Record<string, Action["type"]> = {
  click: "click",
  "double-click": "double_click",
  "right-click": "right_click",
  drag: "drag",
  "mouse-down": "mouse_down",
  "mouse-up": "mouse_up",
  type: "type",
  hotkey: "keypress",
  "key-down": "key_down",
  "key-up": "key_up",
  scroll: "scroll",
  html: "get_html_content",
  viewport: "set_viewport",
  screenshot: "screenshot",
  navigate: "go_to_url",
  "change-proxy": "change_proxy",
  debug: "debug",
  move: "move",
  "point-and-type": "point_and_type",
};

/** The per-action paths and the action type each runs (the OpenAPI document lists them). */
export const NAMED_ACTION_TYPES: Readonly<Record<string, Action["type"]>> = NAMED_ACTIONS;

export function isNamedAction(name: string): boolean {
  return Object.hasOwn(NAMED_ACTIONS, name);
}

/** POST /computers/{id}/{click|type|…}: same as /execute with that action type. */
export async function runNamedAction(call: ActionCall & { name: string; body: unknown }): Promise<ActionResult> {
  const type = NAMED_ACTIONS[call.name];
  const fields = typeof call.body === "object" && call.body !== null ? call.body : {};
  const action = parseAction({ ...fields, type }, "");
  return perform(call, await reachSession(call.principal, call.id), action);
}

/** Tab calls keep the exact shapes of docs/contract.md "Tabs"; not-found tabs are 404 here, not status "error". */
async function tabAction<K extends "list_tabs" | "new_tab" | "switch_tab" | "close_tab">(
  call: ActionCall,
  action: ActionOf<K>,
): Promise<Record<string, unknown>> {
  // Both kinds have tabs: a desktop's are those of its own Chromium (docs/desktop-browsing.md).
  const reached = await reachSession(call.principal, call.id);
  const announce = { sessionId: reached.live.id, requestId: call.requestId, action };
  return timeAction((action as Action).type, () =>
    withActionEvents(getSessionManager().events, announce, async () => {
      try {
        return (await reached.handle.act(action)).result ?? {};
      } catch (err) {
        throw asAppError(err, reached.live);
      }
    }),
  );
}

const stamp = (call: ActionCall) => ({ request_id: call.requestId, timestamp: new Date().toISOString() });

export async function listTabs(call: ActionCall) {
  const result = await tabAction(call, { type: "list_tabs" });
  return { status: "success", result: { tabs: result.tabs }, ...stamp(call) };
}

export const createTabBody = z.strictObject({ url: z.string().optional() });

export function createTab(call: ActionCall & { body: unknown }) {
  return openTab({ ...call, ...parseWith(createTabBody, call.body) });
}

/** POST /computers/{id}/tabs as a typed command: a new tab, on `url` when given (checked as `new_tab` checks it). */
export async function openTab(call: ActionCall & { url?: string }) {
  const { url } = call;
  const action = parseAction({ type: "new_tab", ...(url !== undefined ? { url } : {}) }, "") as ActionOf<"new_tab">;
  const result = await tabAction(call, action);
  return { status: "success", result, ...stamp(call) };
}

export async function switchTab(call: ActionCall & { tabId: string }) {
  await tabAction(call, { type: "switch_tab", tab_id: call.tabId });
  return { status: "success", active_tab: call.tabId, ...stamp(call) };
}

export async function closeTab(call: ActionCall & { tabId: string }) {
  await tabAction(call, { type: "close_tab", tab_id: call.tabId });
  return { status: "success", closed_tab: call.tabId, ...stamp(call) };
}

/** /computers/{id}/<anything else>: the per-action paths, else a JSON 404. */
const WEBSOCKET_PATHS = new Set(["ws", "vnc"]);

export async function routeUnknownPath(
  call: ActionCall & { method: string; path: string; readBody: () => Promise<unknown> },
) {
  if (isNamedAction(call.path)) {
    if (call.method !== "POST") {
      throw new AppError("method_not_allowed", `Use POST for /computers/{id}/${call.path}`, {
        headers: { allow: "POST" },
      });
    }
    return runNamedAction({ ...call, name: call.path, body: await call.readBody() });
  }
  if (WEBSOCKET_PATHS.has(call.path) && call.method === "GET") {
    // The live view and VNC are WebSocket endpoints (the custom server upgrades them); a
    // plain GET learns so, once the key is known to reach this session (else 404).
    await findOwnedComputer(call.principal, call.id);
    throw new AppError(
      "upgrade_required",
      `/computers/{id}/${call.path} is a WebSocket endpoint: send the request with 'Connection: Upgrade' and ` +
        `'Upgrade: websocket'`,
      {
        detail: "websocket_required",
        headers: { upgrade: "websocket", connection: "Upgrade" },
      },
    );
  }
  throw new AppError("not_found", `No such endpoint: ${call.method} /computers/${call.id}/${call.path}`, {
    detail: "unknown_endpoint",
  });
}
