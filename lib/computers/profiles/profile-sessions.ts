// A session's start from a profile (docs/profiles.md): its saved state to restore
// and, with save_changes, the writer's hold for the session's id, taken before the
// session exists so a refused start (409 naming the holder) leaves nothing behind.
import { AppError } from "@/lib/api/errors";
import type { SavedState } from "@/lib/computers/driver";
import type { ProfileRef } from "@/lib/computers/profiles/profile-ref";
import { currentWriter, settledProfile } from "@/lib/computers/profiles/profile-holds";
import { expireProfiles, profileInUse, profileNotFound } from "@/lib/computers/profiles/profiles";
import {
  deleteUnsavedProfile,
  insertHeldProfile,
  loadProfileState,
  swapWriter,
  touchProfile,
  type ProfileRow,
} from "@/lib/computers/profiles/profile-store";
import { getLogger } from "@/lib/logger";

export interface SessionProfile {
  /** The state to start from; undefined for a profile nothing was saved into yet. */
  restore: SavedState | undefined;
  /** The profile the session saves into (save_changes), by row id; null for a reader. */
  writerProfileId: string | null;
  /** Undoes the start's part: lets go of the hold, and removes a profile this start created. */
  release(): Promise<void>;
}

const PARAM = "profile.name";

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === "P2002";
}

async function restoreOf(row: ProfileRow): Promise<SavedState | undefined> {
  try {
    return await loadProfileState(row.id);
  } catch (err) {
    getLogger().error({ err, profile: row.id }, "saved profile unreadable");
    throw new AppError(
      "internal",
      `The saved state of profile '${row.name}' cannot be read: ${(err as Error).message}`,
    );
  }
}

/** Opens `ref` for the session `computerId` (its id chosen ahead of its start). */
export async function openSessionProfile(input: {
  organizationId: string;
  ref: ProfileRef;
  computerId: string;
}): Promise<SessionProfile> {
  const { organizationId, ref, computerId } = input;
  await expireProfiles(organizationId);
  const where = { organizationId, name: ref.name };
  if (!ref.saveChanges) {
    const row = await settledProfile(where);
    if (!row) {
      throw profileNotFound(ref.name, PARAM);
    }
    await touchProfile(row.id);
    return { restore: await restoreOf(row), writerProfileId: null, release: async () => {} };
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await settledProfile(where);
    if (!row) {
      try {
        const created = await insertHeldProfile({ ...where, writerComputerId: computerId });
        const release = () => deleteUnsavedProfile({ id: created.id, writer: computerId });
        return { restore: undefined, writerProfileId: created.id, release };
      } catch (err) {
        if (isUniqueViolation(err)) continue;
        throw err;
      }
    }
    const writer = await currentWriter(row);
    if (writer) throw profileInUse(ref.name, writer, PARAM);
    if (await swapWriter({ id: row.id, from: row.writerComputerId, to: computerId })) {
      const release = async () => void (await swapWriter({ id: row.id, from: computerId, to: null }));
      try {
        return { restore: await restoreOf(row), writerProfileId: row.id, release };
      } catch (err) {
        await release();
        throw err;
      }
    }
  }
  throw new AppError("conflict", `Profile '${ref.name}' is being taken by another session; try again`, {
    param: PARAM,
    detail: "profile_busy",
  });
}
