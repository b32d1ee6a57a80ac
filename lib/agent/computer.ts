// The task's computer, reached through the session domain's front door
// (`createSession`, `actOn`), exactly as /computers requests are: the
// loop's actions count as activity, appear on the session's events, and are
// refused the same way. The model answers Lightcone's `computer_use` tool in
// a 0–1000 space (docs/computer-use.md); `toPixels` rescales its calls to the
// screenshot's pixels before they run.
import { isAppError } from "@/lib/api/errors";
import { actOn, actOnUnchecked, type ActionResult } from "@/lib/computers/session-actions";
import { createSession, deleteComputer, type SessionCaller } from "@/lib/computers/service";
import { findSessionToDriveHere } from "@/lib/computers/session-rows";
import type { ProfileRefBody } from "@/lib/computers/session-profiles";
import { deleteReplay, recordForTask } from "@/lib/computers/session-replays";
import { getLogger } from "@/lib/logger";
import { randomHex } from "@/lib/random-id";

export interface ComputerRef {
  caller: SessionCaller;
  computerId: string;
  /** Origin for screenshot links (the request that started the task). */
  origin: string;
  display: { width: number; height: number };
  /** The session's own kind: a task on an existing session takes it from the session, not from the start's body. */
  kind: "browser" | "desktop";
}

/**
 * Model action types that end the task instead of acting (Lightcone's models answer with these as well as the `done`
 * function).
 */
export const ENDING_ACTIONS = new Set(["terminate", "done", "answer"]);

const scale = (value: unknown, size: number) => (typeof value === "number" ? Math.round((value / 1000) * size) : value);

/** A model action in 0–1000 space → the same action in pixels; other fields as sent. */
export function toPixels(
  action: Record<string, unknown>,
  display: { width: number; height: number },
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...action };
  for (const key of ["x", "end_x", "start_x"]) if (key in out) out[key] = scale(out[key], display.width);
  for (const key of ["y", "end_y", "start_y"]) if (key in out) out[key] = scale(out[key], display.height);
  if (Array.isArray(out.path)) {
    out.path = out.path.map((point: unknown) => {
      const p = point as { x?: unknown; y?: unknown };
      return { ...p, x: scale(p.x, display.width), y: scale(p.y, display.height) };
    });
  }
  // The Lightcone example harness says `navigate`; /execute names it go_to_url.
  if (out.type === "navigate") out.type = "go_to_url";
  return out;
}

const requestId = () => `req_agent_${randomHex(8)}`;

/**
 * Runs one action of the model's (already in pixels), checked as /execute checks one; a failed action is an
 * ActionResult with status "error", a gone session throws.
 */
export async function runAction(ref: ComputerRef, action: Record<string, unknown>): Promise<ActionResult> {
  return (await actOnUnchecked({ ...callOf(ref), action })).result;
}

/** Opens `url` in the computer's browser (a start's start_url), a typed `go_to_url`. */
export async function openPage(ref: ComputerRef, url: string): Promise<ActionResult> {
  return (await actOn({ ...callOf(ref), action: { type: "go_to_url", url } })).result;
}

const callOf = (ref: ComputerRef) => ({
  principal: ref.caller,
  id: ref.computerId,
  requestId: requestId(),
  baseUrl: ref.origin,
});

/** A screenshot stored for the session: its capability URL and the stored file's name (its id, as stored). */
export async function takeScreenshot(ref: ComputerRef): Promise<{ url: string; name: string }> {
  const { result, screenshot } = await actOn({ ...callOf(ref), action: { type: "screenshot" } });
  const url = (result.result as { screenshot_url?: string } | undefined)?.screenshot_url;
  if (result.status !== "success" || !url || !screenshot)
    throw new Error(`screenshot failed: ${result.error_message ?? "no screenshot_url"}`);
  return { url, name: screenshot.name };
}

/** A new session for the task; its errors (bad kind, environment_id, quota) are the start request's. */
export async function openComputer(input: {
  caller: SessionCaller;
  origin: string;
  kind: "browser" | "desktop";
  viewport: { width: number; height: number };
  persistent: boolean;
  environmentId: string | null;
  profile?: ProfileRefBody | null;
}): Promise<ComputerRef> {
  const session = await createSession({
    principal: input.caller,
    origin: input.origin,
    body: {
      kind: input.kind,
      display: input.viewport,
      persistent: input.persistent,
      ...(input.environmentId ? { environment_id: input.environmentId } : {}),
      ...(input.profile ? { profile: input.profile } : {}),
    },
  });
  return {
    caller: input.caller,
    computerId: session.id,
    origin: input.origin,
    display: input.viewport,
    kind: input.kind,
  };
}

/** An existing live session of the organization (computer_id), or null; its display is what the model sees. */
export async function reuseComputer(input: {
  caller: SessionCaller;
  origin: string;
  computerId: string;
}): Promise<ComputerRef | null> {
  // The task's loop drives its computer in this process. In a cluster the forwarder sent the start to the
  // session's node before it got here (docs/cluster.md "Forwarding"); a session that moved meanwhile is
  // refused by the session domain (503 session_on_other_host naming the node), before any task exists.
  const row = await findSessionToDriveHere({ id: input.computerId, organizationId: input.caller.organizationId });
  if (!row) return null;
  return {
    caller: input.caller,
    computerId: row.id,
    origin: input.origin,
    display: { width: row.displayWidth, height: row.displayHeight },
    kind: row.kind === "browser" ? "browser" : "desktop",
  };
}

/** Ends the task's session (saving its state when persistent); a session already gone is fine. */
export async function closeComputer(ref: Pick<ComputerRef, "caller" | "computerId">): Promise<void> {
  try {
    await deleteComputer({ principal: ref.caller, id: ref.computerId });
  } catch (err) {
    if (!(isAppError(err) && err.code === "not_found")) throw err;
  }
}

/**
 * Tasks record their session by default (docs/agent-tasks.md "Replays"): `record: true` that cannot
 * start (storage full, no ffmpeg) refuses the task; the default leaves the recording out and goes on.
 */
export async function recordTask(
  ref: Pick<ComputerRef, "caller" | "computerId">,
  record: boolean | null,
  taskId: string,
): Promise<{ replayId: string | null; started: boolean }> {
  if (record === false) return { replayId: null, started: false };
  try {
    return await recordForTask({ caller: ref.caller, sessionId: ref.computerId, taskId });
  } catch (err) {
    if (record === true) throw err;
    getLogger().warn({ err, taskId }, "the task's session could not be recorded; the task runs without a replay");
    return { replayId: null, started: false };
  }
}

/** A refused start on a session the task does not own leaves no recording of its own behind. */
export async function dropRecording(ref: Pick<ComputerRef, "caller" | "computerId">, replayId: string): Promise<void> {
  await deleteReplay({ caller: ref.caller, id: ref.computerId, replayId }).catch(() => {});
}
