// Database rows of session files (model SessionFile). Reads are scoped by organization
// and session, so a foreign id is simply "not found".
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db";

export type FileSource = "upload" | "download";

/** file_ + 24 hex characters (96 random bits). */
export function newFileId(): string {
  return `file_${randomBytes(12).toString("hex")}`;
}

export interface FileRow {
  id: string;
  organizationId: string;
  computerId: string;
  hostId: string;
  name: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  source: string;
  createdAt: Date;
}

export function insertFile(row: Omit<FileRow, "createdAt">): Promise<FileRow> {
  return getDb().sessionFile.create({ data: row });
}

export function listSessionFiles(input: { computerId: string; organizationId: string }): Promise<FileRow[]> {
  return getDb().sessionFile.findMany({
    where: { computerId: input.computerId, organizationId: input.organizationId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

export function findSessionFile(input: {
  id: string;
  computerId: string;
  organizationId: string;
}): Promise<FileRow | null> {
  return getDb().sessionFile.findFirst({
    where: { id: input.id, computerId: input.computerId, organizationId: input.organizationId },
  });
}

/** The session's newest upload: what a page's file chooser gets unless set_files chose. */
export function latestUpload(computerId: string): Promise<FileRow | null> {
  return getDb().sessionFile.findFirst({
    where: { computerId, source: "upload" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

export function findFilesByIds(computerId: string, ids: string[]): Promise<FileRow[]> {
  return getDb().sessionFile.findMany({ where: { computerId, id: { in: ids } } });
}

/** Downloads already recorded for a session, by name and hash (a desktop folder is collected more than once). */
export async function downloadKeys(computerId: string): Promise<Set<string>> {
  const rows = await getDb().sessionFile.findMany({
    where: { computerId, source: "download" },
    select: { name: true, sha256: true, sizeBytes: true },
  });
  return new Set(rows.map((r) => `${r.name}\u0000${r.sizeBytes}`));
}

export async function deleteFileRow(id: string): Promise<boolean> {
  const { count } = await getDb().sessionFile.deleteMany({ where: { id } });
  return count > 0;
}

/** Bytes the organization's files take (its storage quota, ORG_STORAGE_MAX_BYTES). */
export async function organizationStoredBytes(organizationId: string): Promise<number> {
  const total = await getDb().sessionFile.aggregate({ where: { organizationId }, _sum: { sizeBytes: true } });
  return Number(total._sum.sizeBytes ?? 0);
}

/** Files of sessions that ended before `endedBefore` and are held by this node: the reaper's work. */
export function expiredFiles(input: { hostId: string; endedBefore: Date; limit: number }): Promise<FileRow[]> {
  return getDb().sessionFile.findMany({
    where: {
      hostId: input.hostId,
      computer: { status: "terminated", terminatedAt: { lt: input.endedBefore } },
    },
    take: input.limit,
  });
}
