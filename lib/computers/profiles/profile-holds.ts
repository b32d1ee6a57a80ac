// Reading a profile's writer hold against the database: who holds it now, waiting
// for a session of this node that is still writing its last save (docs/profiles.md
// "One writer").
import { holdIsLive } from "@/lib/computers/profiles/profile-hold";
import { findProfile, holderRows, type ProfileRow } from "@/lib/computers/profiles/profile-store";
import { getSessionManager } from "@/lib/computers/registry";

/** The session holding the profile, or null when none does. */
export async function currentWriter(row: ProfileRow): Promise<string | null> {
  if (!row.writerComputerId) return null;
  const holders = await holderRows([row.writerComputerId]);
  return holdIsLive(row, holders.get(row.writerComputerId)) ? row.writerComputerId : null;
}

/**
 * The profile as it is once a session of this node that ended and still holds it has
 * written its last save and let go (the end of a session answers before that,
 * `SessionManager.terminate`). Null when the profile does not exist.
 */
export async function settledProfile(where: { organizationId: string; name: string }): Promise<ProfileRow | null> {
  const row = await findProfile(where);
  const writer = row?.writerComputerId;
  if (!writer) return row;
  const manager = getSessionManager();
  if (!manager.get(writer)?.ending) return row;
  await manager.tornDown(writer);
  return findProfile(where);
}

/** In-use marks of many profiles at once (lists). */
export async function writersOf(rows: ProfileRow[]): Promise<Map<string, string>> {
  const ids = rows.flatMap((r) => (r.writerComputerId ? [r.writerComputerId] : []));
  const holders = await holderRows(ids);
  const now = new Date();
  const writers = new Map<string, string>();
  for (const row of rows) {
    if (row.writerComputerId && holdIsLive(row, holders.get(row.writerComputerId), now))
      writers.set(row.id, row.writerComputerId);
  }
  return writers;
}

/** Waits for this node's ending sessions that still hold one of `rows` (their last save); true when it waited. */
export async function awaitEndingWriters(rows: ProfileRow[]): Promise<boolean> {
  const manager = getSessionManager();
  const ending = rows.flatMap((r) =>
    r.writerComputerId && manager.get(r.writerComputerId)?.ending ? [r.writerComputerId] : [],
  );
  await Promise.all(ending.map((id) => manager.tornDown(id)));
  return ending.length > 0;
}
