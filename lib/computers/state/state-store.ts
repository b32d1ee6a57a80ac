// Saved state of persistent sessions, for every kind of computer. The bytes are
// opaque here (a driver's SavedState), sealed with `sealState`.
// On PostgreSQL every state lives in the computer_states row, so any node of a
// cluster restores it (docs/cluster.md). On SQLite (one node) small states live
// in the row; large ones (desktop snapshots, above STATE_INLINE_MAX_BYTES) in a
// file under DATA_DIR/states named by the row, written atomically: the database
// file stays small and is never rewritten around a snapshot.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { dbProvider, getDb } from "@/lib/db";
import { dataDir, getEnv } from "@/lib/env";
import type { ComputerKind, SavedState } from "@/lib/computers/driver";
import { openState, sealState } from "@/lib/computers/state/state-crypto";

const STATES_DIR = "states";

function absolute(relativePath: string): string {
  const root = path.join(dataDir(), STATES_DIR);
  const file = path.resolve(dataDir(), relativePath);
  // filePath comes from our own rows, but never follow one out of the states dir.
  if (!file.startsWith(root + path.sep)) throw new Error("Saved state path escapes the data directory");
  return file;
}

export async function saveState(input: {
  computerId: string;
  organizationId: string;
  state: SavedState;
}): Promise<number> {
  const { computerId, organizationId, state } = input;
  const sealed = sealState(state.data, computerId);
  const inline = dbProvider() === "postgresql" || sealed.length <= getEnv().STATE_INLINE_MAX_BYTES;
  const db = getDb();
  let filePath: string | null = null;
  if (!inline) {
    filePath = path.join(STATES_DIR, `${computerId}.bin`);
    const file = absolute(filePath);
    const dir = path.dirname(file);
    await mkdir(/* turbopackIgnore: true */ dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(/* turbopackIgnore: true */ tmp, sealed, { mode: 0o600 });
    await rename(/* turbopackIgnore: true */ tmp, /* turbopackIgnore: true */ file);
  }
  const previous = await db.computerState.findUnique({ where: { computerId }, select: { filePath: true } });
  const data = {
    organizationId,
    kind: state.kind,
    baseVersion: state.baseVersion ?? null,
    data: inline ? new Uint8Array(sealed) : null,
    filePath,
    sizeBytes: sealed.length,
    savedAt: new Date(),
  };
  await db.computerState.upsert({ where: { computerId }, create: { computerId, ...data }, update: data });
  if (previous?.filePath && previous.filePath !== filePath) {
    const old = absolute(previous.filePath);
    await rm(/* turbopackIgnore: true */ old, { force: true });
  }
  return sealed.length;
}

/** The saved state of a session of this organization, or null when none was saved. */
export async function loadState(input: { computerId: string; organizationId: string }): Promise<SavedState | null> {
  const row = await getDb().computerState.findFirst({
    where: { computerId: input.computerId, organizationId: input.organizationId },
  });
  if (!row) return null;
  const file = row.filePath ? absolute(row.filePath) : null;
  const sealed = row.data ? Buffer.from(row.data) : file ? await readFile(/* turbopackIgnore: true */ file) : null;
  if (!sealed) return null;
  return {
    kind: row.kind as ComputerKind,
    baseVersion: row.baseVersion ?? undefined,
    data: openState(sealed, input.computerId),
  };
}

export async function hasState(input: { computerId: string; organizationId: string }): Promise<boolean> {
  const row = await getDb().computerState.findFirst({
    where: { computerId: input.computerId, organizationId: input.organizationId },
    select: { computerId: true },
  });
  return row !== null;
}

/**
 * The state files of an organization's sessions, read before the organization is deleted (the rows cascade, files do
 * not).
 */
export async function stateFilesOf(organizationId: string): Promise<string[]> {
  const rows = await getDb().computerState.findMany({
    where: { organizationId, filePath: { not: null } },
    select: { filePath: true },
  });
  return rows.map((r) => absolute(r.filePath!));
}

export async function removeStateFiles(files: string[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file, { force: true })));
}
