// Database rows of replays (model Replay). Reads are scoped by organization and
// session, so a foreign id is simply "not found".
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db";

export type ReplayStatus = "recording" | "processing" | "ready" | "failed";

/** rep_ + 24 hex characters (96 random bits). */
export function newReplayId(): string {
  return `rep_${randomBytes(12).toString("hex")}`;
}

export interface ReplayRow {
  id: string;
  organizationId: string;
  sessionId: string;
  nodeId: string;
  taskId: string | null;
  status: string;
  reason: string | null;
  framerate: number;
  maxDurationSeconds: number | null;
  startedAt: Date;
  finishedAt: Date | null;
  sizeBytes: bigint;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  fileName: string;
}

export function insertReplay(
  row: Pick<
    ReplayRow,
    "id" | "organizationId" | "sessionId" | "nodeId" | "taskId" | "framerate" | "maxDurationSeconds" | "fileName"
  > & { startedAt: Date },
): Promise<ReplayRow> {
  return getDb().replay.create({ data: { ...row, status: "recording" } });
}

export function updateReplay(
  id: string,
  data: Partial<
    Pick<ReplayRow, "status" | "reason" | "finishedAt" | "sizeBytes" | "width" | "height" | "durationSeconds">
  >,
): Promise<ReplayRow | null> {
  return getDb()
    .replay.update({ where: { id }, data })
    .catch(() => null);
}

export function listSessionReplays(input: { sessionId: string; organizationId: string }): Promise<ReplayRow[]> {
  return getDb().replay.findMany({
    where: { sessionId: input.sessionId, organizationId: input.organizationId },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
  });
}

export function findReplay(input: {
  id: string;
  sessionId: string;
  organizationId: string;
}): Promise<ReplayRow | null> {
  return getDb().replay.findFirst({
    where: { id: input.id, sessionId: input.sessionId, organizationId: input.organizationId },
  });
}

export function findReplayById(id: string): Promise<ReplayRow | null> {
  return getDb().replay.findUnique({ where: { id } });
}

/** The replays an agent task started, oldest first. */
export function taskReplays(input: { taskId: string; organizationId: string }): Promise<ReplayRow[]> {
  return getDb().replay.findMany({
    where: { taskId: input.taskId, organizationId: input.organizationId },
    orderBy: [{ startedAt: "asc" }, { id: "asc" }],
  });
}

export async function deleteReplayRow(id: string): Promise<boolean> {
  const { count } = await getDb().replay.deleteMany({ where: { id } });
  return count > 0;
}

/** Bytes the organization's replays take (its storage quota, ORG_STORAGE_MAX_BYTES). */
export async function organizationReplayBytes(organizationId: string): Promise<number> {
  const total = await getDb().replay.aggregate({ where: { organizationId }, _sum: { sizeBytes: true } });
  return Number(total._sum.sizeBytes ?? 0);
}

/** Replays this node was recording or finishing when its previous process stopped. */
export function unfinishedReplays(nodeId: string): Promise<ReplayRow[]> {
  return getDb().replay.findMany({ where: { nodeId, status: { in: ["recording", "processing"] } } });
}

/** Replays of this node that finished before `finishedBefore`: the reaper's work. */
export function expiredReplays(input: { nodeId: string; finishedBefore: Date; limit: number }): Promise<ReplayRow[]> {
  return getDb().replay.findMany({
    where: { nodeId: input.nodeId, finishedAt: { lt: input.finishedBefore } },
    take: input.limit,
  });
}

/** File names this node's rows still name (the reaper removes files no row names). */
export async function replayFileNames(nodeId: string): Promise<Set<string>> {
  const rows = await getDb().replay.findMany({ where: { nodeId }, select: { fileName: true } });
  return new Set(rows.map((r) => r.fileName));
}
