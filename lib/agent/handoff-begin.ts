// The start of a hand-off to a person, shared by the loop (the model called
// request_human) and the API (POST /agent/tasks/{id}/handoff): the record and
// the task `awaiting_human` first, then the loop is told to hold at its next
// gate, where it sends `needs_human` with the take-over link
// (docs/agent-tasks.md "Hand-off to a person"). While it holds for a person the
// session's idle deadline is moved, so it does not end for inactivity.
import type { TaskControl } from "@/lib/agent/control";
import {
  type HandoffRecord,
  handoffsOf,
  openHandoffOf,
  recordHandBack,
  recordHandoff,
} from "@/lib/agent/handoff-store";
import { handoffToken, linkExpiry, takeoverUrl } from "@/lib/agent/handoff-link";
import { getSessionManager } from "@/lib/computers/registry";
import { findComputerById } from "@/lib/computers/session-rows";
import { randomHex } from "@/lib/random-id";

export interface HandoffLinks {
  /** The signed take-over page: the live view with control and a Done button, no login. */
  live_view_url: string;
  /** The task's page in the dashboard (a member's sign-in), with the same controls. */
  dashboard_url: string;
  /** When live_view_url stops working (read the task again for a fresh one). */
  expires_at: string;
}

/** Fresh links for the open hand-off `handoffId` of a task on session `computerId`. */
export async function handoffLinks(input: {
  taskId: string;
  handoffId: string;
  computerId: string | null;
  origin: string;
}): Promise<HandoffLinks> {
  const session = input.computerId ? await findComputerById(input.computerId) : null;
  const expires = linkExpiry(session?.expiresAt ?? new Date());
  return {
    live_view_url: takeoverUrl(input.origin, input.taskId, handoffToken(input.taskId, input.handoffId, expires)),
    dashboard_url: `${input.origin}/tasks/${encodeURIComponent(input.taskId)}`,
    expires_at: new Date(expires).toISOString(),
  };
}

const starting = new WeakSet<TaskControl>();

/** Hands the task to a person; null when it is ending or already waits (the caller says so). */
export async function beginHandoff(input: {
  taskId: string;
  computerId: string;
  origin: string;
  control: TaskControl;
  reason: string;
  requestedBy: string;
}): Promise<{ handoff: HandoffRecord; links: HandoffLinks } | null> {
  const { control } = input;
  if (control.awaitingHuman !== null || control.interrupted || starting.has(control)) return null;
  starting.add(control);
  try {
    const handoff: HandoffRecord = {
      id: `handoff_${randomHex(8)}`,
      reason: input.reason,
      requested_by: input.requestedBy,
      requested_at: new Date().toISOString(),
      resumed_at: null,
      resumed_by: null,
      note: null,
    };
    const links = await handoffLinks({ ...input, handoffId: handoff.id });
    await recordHandoff(input.taskId, handoff);
    const data = {
      task_id: input.taskId,
      handoff_id: handoff.id,
      reason: handoff.reason,
      requested_by: handoff.requested_by,
      ...links,
    };
    if (!control.handOff(handoff.reason, () => ({ event: "needs_human", data }))) return null;
    return { handoff, links };
  } finally {
    starting.delete(control);
  }
}

/** Gives control back: the record closed (who, what note), the task running, the loop woken. */
export async function handBack(input: { taskId: string; control: TaskControl; by: string; note: string | null }) {
  await recordHandBack(input.taskId, input.by, input.note);
  input.control.resume({ by: input.by, note: input.note });
}

/**
 * The loop's gate, moving the session's idle deadline while the task waits for a person (a third of
 * the session's idle timeout, at most every 30 s): a person may take minutes to arrive.
 */
export async function gateKeepingSession(control: TaskControl, computerId: string): Promise<void> {
  if (!control.paused && control.awaitingHuman === null) return control.gate();
  const manager = getSessionManager();
  const touch = () => {
    const live = manager.get(computerId);
    if (live && control.awaitingHuman !== null) void manager.touch(live).catch(() => {});
  };
  const live = manager.get(computerId);
  const everySeconds = Math.max(1, Math.min(30, (live?.inactivityTimeoutSeconds ?? 90) / 3));
  touch();
  const timer = setInterval(touch, everySeconds * 1000);
  timer.unref();
  try {
    await control.gate();
  } finally {
    clearInterval(timer);
  }
}

/** A task object's hand-off fields: the open one with fresh links (null when it does not wait), and the history. */
export async function handoffFields(
  task: { id: string; status: string; options: string; computerId: string | null },
  origin: string,
) {
  const open = task.status === "awaiting_human" ? openHandoffOf(task.options) : null;
  return {
    handoff: open && {
      ...open,
      ...(await handoffLinks({ taskId: task.id, handoffId: open.id, computerId: task.computerId, origin })),
    },
    handoffs: handoffsOf(task.options),
  };
}
