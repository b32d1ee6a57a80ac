// The profiles API (docs/profiles.md): list, read and delete an organization's
// named browser profiles. Sessions open them through `openSessionProfile`.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { getEnv } from "@/lib/env";
import { profileNameSchema } from "@/lib/computers/profiles/profile-ref";
import { awaitEndingWriters, currentWriter, settledProfile, writersOf } from "@/lib/computers/profiles/profile-holds";
import {
  deleteProfileRow,
  deleteUnusedProfiles,
  listProfileRows,
  type ProfileRow,
} from "@/lib/computers/profiles/profile-store";

export interface ProfileObject {
  name: string;
  size_bytes: number;
  created_at: string;
  updated_at: string;
  last_used_at: string;
  /** The session that may save into it now (save_changes), or null. */
  in_use_by: string | null;
}

function toProfileObject(row: ProfileRow, inUseBy: string | null): ProfileObject {
  return {
    name: row.name,
    size_bytes: row.sizeBytes,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    last_used_at: row.lastUsedAt.toISOString(),
    in_use_by: inUseBy,
  };
}

/** Deletes the organization's profiles unused for PROFILE_RETENTION_DAYS (also done by `startProfileReaper`). */
export function expireProfiles(organizationId?: string, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - getEnv().PROFILE_RETENTION_DAYS * 86_400_000);
  return deleteUnusedProfiles({ before, organizationId });
}

const nameParam = z.object({ name: profileNameSchema });

export function parseProfileName(name: string): string {
  return parseWith(nameParam, { name }).name;
}

export function profileNotFound(name: string, param = "name"): AppError {
  return new AppError("not_found", `No profile named '${name}' in your organization`, {
    param,
    detail: "profile_not_found",
  });
}

export function profileInUse(name: string, writer: string, param?: string): AppError {
  return new AppError(
    "conflict",
    `Profile '${name}' is in use by session ${writer}, which saves changes into it; only one session at a time ` +
      `may save a profile (start without save_changes to read it, or end ${writer} first)`,
    { param, detail: "profile_in_use" },
  );
}

export async function listProfiles(input: { organizationId: string }): Promise<ProfileObject[]> {
  await expireProfiles(input.organizationId);
  let rows = await listProfileRows(input.organizationId);
  // As getProfile: a session of this node that just ended is listed once its last save let go.
  if (await awaitEndingWriters(rows)) rows = await listProfileRows(input.organizationId);
  const writers = await writersOf(rows);
  return rows.map((row) => toProfileObject(row, writers.get(row.id) ?? null));
}

export async function getProfile(input: { organizationId: string; name: string }): Promise<ProfileObject> {
  const name = parseProfileName(input.name);
  await expireProfiles(input.organizationId);
  const row = await settledProfile({ organizationId: input.organizationId, name });
  if (!row) throw profileNotFound(name);
  return toProfileObject(row, await currentWriter(row));
}

/** DELETE /profiles/{name}: refused (409) while a session holds it to save into it. */
export async function deleteProfile(input: { organizationId: string; name: string }): Promise<void> {
  const name = parseProfileName(input.name);
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await settledProfile({ organizationId: input.organizationId, name });
    if (!row) throw profileNotFound(name);
    const writer = await currentWriter(row);
    if (writer) throw profileInUse(name, writer);
    if (await deleteProfileRow({ id: row.id, writer: row.writerComputerId })) return;
  }
  throw new AppError("conflict", `Profile '${name}' changed while it was being deleted; try again`, {
    detail: "profile_busy",
  });
}
