// A session's end and the writes of its state, for `SessionManager`: `endInOrder` is the end in the
// documented order (docs/computers.md "How a session ends": the row, then the `SessionEnded` event,
// then `tearDown`), `saveIfChanged` the periodic save of a persistent session or a profile's writer
// (docs/profiles.md).
import { createHash } from "node:crypto";
import type { ComputerHandle, SavedState } from "@/lib/computers/driver";
import type { TerminationReason } from "@/lib/computers/sessions/lifecycle";
import type { LiveSession } from "@/lib/computers/sessions/live-session";
import type { SessionEndBus } from "@/lib/computers/sessions/session-end";
import { saveProfileState, swapWriter } from "@/lib/computers/profiles/profile-store";
import { saveState } from "@/lib/computers/state/state-store";
import { getLogger } from "@/lib/logger";
import { settlesWithin } from "@/lib/settles-within";

/** How long the end waits for its subscribers before it tears the computer down regardless. */
const SUBSCRIBERS_LIMIT_MS = 10_000;

/**
 * The end of a session, once `live.rowEnded` (the write of its terminated row) has begun: 1. the row is
 * terminated, 2. `SessionEnded` reaches the bus's subscribers in stage order, so each of them finds the session
 * terminated wherever it looks, 3. the computer is torn down. The event and the tear-down follow even when the
 * row could not be written (the sweep retries that): an end always completes.
 */
export async function endInOrder(
  live: LiveSession,
  reason: TerminationReason,
  started: Promise<ComputerHandle | null>,
  ends: SessionEndBus,
): Promise<void> {
  const log = getLogger();
  await live.rowEnded?.catch((err) => log.error({ err, id: live.id }, "could not mark a session terminated"));
  const published = ends.publish(
    { sessionId: live.id, organizationId: live.organizationId, kind: live.kind, reason, at: new Date() },
    (err, stage) => log.warn({ err, id: live.id, stage }, "a session-end subscriber failed"),
  );
  // A subscriber that never settles (a capture whose stop hangs in Chromium) must not hold the computer,
  // its saved state and its profile forever: past the limit the tear-down goes ahead.
  if (!(await settlesWithin(published, SUBSCRIBERS_LIMIT_MS)))
    log.warn({ id: live.id, ms: SUBSCRIBERS_LIMIT_MS }, "session-end subscribers still running; tearing down anyway");
  const handle = await started;
  if (handle) await tearDown(live, reason, handle);
}

/** Stops the computer, saving a persistent session's state unless it crashed. */
export async function tearDown(live: LiveSession, reason: TerminationReason, handle: ComputerHandle): Promise<void> {
  const log = getLogger();
  await live.saving?.catch(() => {});
  // A crashed computer has nothing left to save; its last periodic save stands.
  const save = (live.persistent || live.profileId !== null) && reason !== "crashed";
  let state: SavedState | null = null;
  try {
    state = await handle.stop({ saveState: save });
  } catch (err) {
    log.warn({ err, id: live.id }, "stopping a session failed; its resources were released anyway");
  }
  if (state) {
    try {
      const bytes = await persist(live, state);
      log.info({ id: live.id, bytes }, "saved session state");
    } catch (err) {
      log.error({ err, id: live.id }, "could not save session state at the end");
    }
  }
  if (live.profileId) {
    await swapWriter({ id: live.profileId, from: live.id, to: null }).catch((err) =>
      log.error({ err, id: live.id }, "could not let go of the session's profile"),
    );
  }
  log.info({ id: live.id, reason }, "session terminated");
}

/** Periodic save of a persistent session or a profile's writer; skips the write when nothing changed. */
export async function saveIfChanged(live: LiveSession): Promise<void> {
  if (!live.handle || live.ending) return;
  const state = await live.handle.snapshot();
  const digest = createHash("sha256").update(state.data).digest("hex");
  if (digest === live.savedDigest || live.ending) return;
  await persist(live, state);
  live.savedDigest = digest;
}

/** Writes the state where the session keeps it: its own saved state, its profile, or both. */
async function persist(live: LiveSession, state: SavedState): Promise<number> {
  let bytes = 0;
  if (live.persistent) bytes = await saveState({ computerId: live.id, organizationId: live.organizationId, state });
  if (live.profileId && !(await saveProfileState({ id: live.profileId, computerId: live.id, state }))) {
    getLogger().warn({ id: live.id, profile: live.profileId }, "the profile is no longer this session's to save");
  }
  return bytes || state.data.length;
}
