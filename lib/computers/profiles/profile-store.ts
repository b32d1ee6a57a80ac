// Database queries for profile rows, scoped by organization, and the sealing of
// their state: `sealState` with the row id as associated data (a blob copied onto
// another row fails to open). The state lives in the row on SQLite and PostgreSQL
// alike, so any node of a cluster restores it (docs/profiles.md).
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db";
import type { SavedState } from "@/lib/computers/driver";
import { openState, sealState } from "@/lib/computers/state/state-crypto";

/** prof_ + 24 hex characters. */
export function newProfileId(): string {
  return `prof_${randomBytes(12).toString("hex")}`;
}

export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;

const summary = {
  id: true,
  organizationId: true,
  name: true,
  sizeBytes: true,
  createdAt: true,
  updatedAt: true,
  lastUsedAt: true,
  writerComputerId: true,
  writerSince: true,
} as const;

export function findProfile(where: { organizationId: string; name: string }) {
  return getDb().profile.findUnique({ where: { organizationId_name: where }, select: summary });
}

export function listProfileRows(organizationId: string) {
  return getDb().profile.findMany({ where: { organizationId }, select: summary, orderBy: { name: "asc" } });
}

/** A new profile held by its first writer; throws Prisma's P2002 when the name was taken meanwhile. */
export function insertHeldProfile(input: { organizationId: string; name: string; writerComputerId: string }) {
  const now = new Date();
  return getDb().profile.create({
    data: { id: newProfileId(), ...input, writerSince: now, createdAt: now, updatedAt: now, lastUsedAt: now },
    select: summary,
  });
}

/** Compare-and-swap of the writer: true when the row still had `from` and now has `to`. */
export async function swapWriter(input: { id: string; from: string | null; to: string | null }): Promise<boolean> {
  const now = new Date();
  const { count } = await getDb().profile.updateMany({
    where: { id: input.id, writerComputerId: input.from },
    data: { writerComputerId: input.to, writerSince: input.to ? now : null, ...(input.to ? { lastUsedAt: now } : {}) },
  });
  return count === 1;
}

export async function touchProfile(id: string): Promise<void> {
  await getDb().profile.updateMany({ where: { id }, data: { lastUsedAt: new Date() } });
}

/** The profile's saved state, or undefined when no session has saved into it yet. */
export async function loadProfileState(id: string): Promise<SavedState | undefined> {
  const row = await getDb().profile.findUnique({ where: { id }, select: { data: true } });
  if (!row?.data) return undefined;
  return { kind: "browser", data: openState(Buffer.from(row.data), id) };
}

/** Writes the state only while `computerId` still holds the profile; false when it does not any more. */
export async function saveProfileState(input: { id: string; computerId: string; state: SavedState }): Promise<boolean> {
  const sealed = sealState(input.state.data, input.id);
  const now = new Date();
  const { count } = await getDb().profile.updateMany({
    where: { id: input.id, writerComputerId: input.computerId },
    data: { data: new Uint8Array(sealed), sizeBytes: sealed.length, updatedAt: now, lastUsedAt: now },
  });
  return count === 1;
}

/** Deletes the row only if its writer is still `writer` (null, or a hold that is over). */
export async function deleteProfileRow(input: { id: string; writer: string | null }): Promise<boolean> {
  const { count } = await getDb().profile.deleteMany({ where: { id: input.id, writerComputerId: input.writer } });
  return count === 1;
}

/** Deletes a profile made for a session that never started, unless a state was saved into it meanwhile. */
export async function deleteUnsavedProfile(input: { id: string; writer: string }): Promise<void> {
  await getDb().profile.deleteMany({ where: { id: input.id, writerComputerId: input.writer, data: null } });
}

/** Profiles no session used since `before` and that no writer holds since then. */
export async function deleteUnusedProfiles(input: { before: Date; organizationId?: string }): Promise<number> {
  const { count } = await getDb().profile.deleteMany({
    where: {
      ...(input.organizationId ? { organizationId: input.organizationId } : {}),
      lastUsedAt: { lt: input.before },
      OR: [{ writerComputerId: null }, { writerSince: { lt: input.before } }],
    },
  });
  return count;
}

/** The rows of the sessions that hold profiles, by id (what `holdIsLive` judges). */
export async function holderRows(ids: string[]) {
  if (!ids.length) return new Map<string, HolderRow>();
  const rows = await getDb().computer.findMany({
    where: { id: { in: ids } },
    select: { id: true, status: true, terminationReason: true, terminatedAt: true },
  });
  return new Map(rows.map((r) => [r.id, r]));
}

export interface HolderRow {
  id: string;
  status: string;
  terminationReason: string | null;
  terminatedAt: Date | null;
}
