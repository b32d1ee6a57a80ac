// How a live viewer reaches a session (GET /computers/{id}/screencast, the /ws
// and vnc upgrades): the session's live-view token or the organization's API
// key, a live session served here, and its shared ScreencastHub. Attaching a
// viewer marks the session `running` but is not activity: a watched session
// still ends at its idle deadline unless someone acts on it (input sent
// through /ws is activity, see `touchForInput`).
import { AppError } from "@/lib/api/errors";
import { credentialsError } from "@/lib/api/capability-token";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { assertServedHere, findOwnedComputer } from "@/lib/computers/sessions/access";
import type { ComputerHandle } from "@/lib/computers/driver";
import { terminatedError } from "@/lib/computers/actions/failures";
import { ScreencastHub } from "@/lib/computers/live/hub";
import { verifyLiveViewToken } from "@/lib/computers/live/token";
import type { LiveSession } from "@/lib/computers/sessions/manager";
import { getSessionManager } from "@/lib/computers/registry";
import * as store from "@/lib/computers/sessions/store";

const LIVE_VIEW_TOKEN_HELP = {
  message: "Invalid or expired live-view token: read the session again for fresh endpoints",
  detail: "invalid_live_view_token",
  howToUse: "use the URL in the session's endpoints as given",
};

export interface LiveViewCredentials {
  id: string;
  authorization: string | null;
  token: string | null;
}

export interface LiveViewTarget {
  live: LiveSession;
  handle: ComputerHandle;
  hub: ScreencastHub;
}

async function authorizedRow(input: LiveViewCredentials): Promise<store.ComputerRow> {
  if (input.token !== null && verifyLiveViewToken(input.id, input.token)) {
    const row = await store.findComputerById(input.id);
    if (!row) throw new AppError("not_found", `Session '${input.id}' not found`, { detail: "session_not_found" });
    return row;
  }
  if (input.authorization === null) throw credentialsError(input.token, LIVE_VIEW_TOKEN_HELP);
  return findOwnedComputer(await authenticateApiKey(input.authorization), input.id);
}

/** Authorizes and resolves a live session with its hub; the caller attaches a viewer to `hub`. */
export async function reachLiveView(input: LiveViewCredentials): Promise<LiveViewTarget> {
  const row = await authorizedRow(input);
  if (row.status === "terminated") throw terminatedError(row);
  assertServedHere(row);
  const manager = getSessionManager();
  const live = manager.get(row.id);
  const handle = live ? await live.started.catch(() => null) : null;
  if (!live || !handle || manager.isEnding(live)) throw terminatedError({ id: row.id, terminationReason: "ending" });
  if (!handle.screencast) {
    throw new AppError("not_implemented", `${handle.kind} sessions have no live view on this server`);
  }
  live.liveView ??= new ScreencastHub(handle.screencast);
  await store.markRunning(row.id);
  return { live, handle, hub: live.liveView };
}

const INPUT_TOUCH_EVERY_MS = 1000;
const lastTouch = new WeakMap<LiveSession, number>();

/** Live-view input is activity; it moves the idle deadline at most once a second. */
export function touchForInput(live: LiveSession): void {
  const now = Date.now();
  if (now - (lastTouch.get(live) ?? 0) < INPUT_TOUCH_EVERY_MS) return;
  lastTouch.set(live, now);
  void getSessionManager()
    .touch(live)
    .catch(() => {});
}
