// When does a writer's hold on a profile count (docs/profiles.md "One writer")?
// The hold names a session; it is judged from that session's row, so it ends when
// the session ends and never outlives a crashed node: the row a survivor marks
// crashed frees it. Pure: unit tested.
import type { HolderRow } from "@/lib/computers/profiles/profile-store";

/**
 * The hold is taken before the session's row exists (a start may queue up to SESSION_START_QUEUE_WAIT_SECONDS); a start
 * that never wrote its row frees it after this.
 */
export const START_GRACE_MS = 15 * 60_000;
/** A session that ended normally writes its last save after its row is terminated; that long, it still holds. */
export const ENDING_GRACE_MS = 60_000;

export function holdIsLive(
  hold: { writerComputerId: string | null; writerSince: Date | null },
  holder: HolderRow | null | undefined,
  now: Date = new Date(),
): boolean {
  if (!hold.writerComputerId) return false;
  if (!holder) return (hold.writerSince?.getTime() ?? 0) > now.getTime() - START_GRACE_MS;
  if (holder.status !== "terminated") return true;
  if (holder.terminationReason === "crashed" || holder.terminationReason === "provision_failed") return false;
  return (holder.terminatedAt?.getTime() ?? 0) > now.getTime() - ENDING_GRACE_MS;
}
