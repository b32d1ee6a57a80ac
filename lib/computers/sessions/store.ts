// Database queries for computer rows, for every kind. Reads are scoped by
// organization (a foreign id is "not found"); lifecycle writes are by id and
// never move a row out of `terminated`.
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db";
import type { CreateOptions } from "@/lib/computers/sessions/create-options";
import { LIVE_STATUSES, type Deadlines, type TerminationReason } from "@/lib/computers/sessions/lifecycle";

/** comp_ + 24 hex characters (96 random bits). */
export function newComputerId(): string {
  return `comp_${randomBytes(12).toString("hex")}`;
}

export type ComputerRow = NonNullable<Awaited<ReturnType<typeof findComputer>>>;

export async function insertComputer(input: {
  id: string;
  organizationId: string;
  apiKeyId: string | null;
  hostId: string;
  options: CreateOptions;
  createdAt: Date;
  deadlines: Deadlines;
}) {
  const { options: o } = input;
  return getDb().computer.create({
    data: {
      id: input.id,
      organizationId: input.organizationId,
      apiKeyId: input.apiKeyId,
      kind: o.kind,
      status: "ready",
      hostId: input.hostId,
      contextId: o.contextId,
      createdAt: input.createdAt,
      lastActivityAt: input.createdAt,
      expiresAt: input.deadlines.expiresAt,
      idleExpiresAt: input.deadlines.idleExpiresAt,
      maxLifetimeSeconds: o.maxLifetimeSeconds,
      inactivityTimeoutSeconds: o.inactivityTimeoutSeconds,
      autoKill: o.autoKill,
      persistent: o.persistent,
      environmentId: o.environmentId,
      useAdvancedProxy: o.useAdvancedProxy,
      stealth: o.stealth,
      displayWidth: o.display.width,
      displayHeight: o.display.height,
      displayScale: o.display.scale,
    },
  });
}

export function findComputer(where: { id: string; organizationId: string }) {
  return getDb().computer.findFirst({ where });
}

export function findComputerById(id: string) {
  return getDb().computer.findUnique({ where: { id } });
}

export type ListFilter = "all" | "live" | "persistent";

export function listComputers(input: { organizationId: string; filter: ListFilter }) {
  const where =
    input.filter === "live"
      ? { status: { in: LIVE_STATUSES } }
      : input.filter === "persistent"
        ? { persistent: true, state: { isNot: null } }
        : {};
  return getDb().computer.findMany({
    where: { organizationId: input.organizationId, ...where },
    select: { id: true, kind: true, status: true, createdAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** Activity: moves last_activity_at and idle_expires_at, and ready → running. False when the row is no longer live. */
export async function recordActivity(input: { id: string; at: Date; idleExpiresAt: Date }): Promise<boolean> {
  const { count } = await getDb().computer.updateMany({
    where: { id: input.id, status: { in: LIVE_STATUSES } },
    data: { lastActivityAt: input.at, idleExpiresAt: input.idleExpiresAt, status: "running" },
  });
  return count > 0;
}

/** A live viewer attached: ready → running, without moving the idle deadline (viewers are not activity). */
export async function markRunning(id: string): Promise<void> {
  await getDb().computer.updateMany({ where: { id, status: "ready" }, data: { status: "running" } });
}

export async function markTerminated(id: string, reason: TerminationReason, at = new Date()): Promise<void> {
  await getDb().computer.updateMany({
    where: { id, status: { in: LIVE_STATUSES } },
    data: { status: "terminated", terminationReason: reason, terminatedAt: at },
  });
}

/**
 * Rows this host left live belong to processes that no longer exist. With
 * `diedBy` (the host's last heartbeat) they end when the host died: rows made
 * before it at the heartbeat, rows made after it within one more beat.
 */
export async function terminateLeftovers(input: {
  hostId: string; exceptIds?: string[]; createdBefore?: Date; diedBy?: { lastAlive: Date; beatMs: number };
}) {
  const now = new Date();
  const where = {
    hostId: input.hostId,
    status: { in: LIVE_STATUSES },
    ...(input.exceptIds?.length ? { id: { notIn: input.exceptIds } } : {}),
  };
  const end = (createdAt: { lt?: Date; gte?: Date }, terminatedAt: Date) =>
    getDb().computer.updateMany({
      where: { ...where, createdAt },
      data: { status: "terminated", terminationReason: "crashed", terminatedAt },
    });
  const before = input.createdBefore ?? now;
  if (!input.diedBy || input.diedBy.lastAlive >= before) return (await end({ lt: before }, now)).count;
  const { lastAlive, beatMs } = input.diedBy;
  const latest = new Date(Math.min(lastAlive.getTime() + beatMs, now.getTime()));
  const [older, newer] = await Promise.all([end({ lt: lastAlive }, lastAlive), end({ gte: lastAlive, lt: before }, latest)]);
  return older.count + newer.count;
}

/** A dead node's live rows end as crashed at `at` (its last lease renewal); the count ended. */
export async function endSessionsOfDeadNode(input: { hostId: string; at: Date }): Promise<number> {
  const { count } = await getDb().computer.updateMany({
    where: { hostId: input.hostId, status: { in: LIVE_STATUSES } },
    data: { status: "terminated", terminationReason: "crashed", terminatedAt: input.at },
  });
  return count;
}

/** Live sessions per node, and the organization's live browser sessions per node (placement of creates). */
export async function liveLoads(organizationId: string) {
  const db = getDb();
  const [all, browsers] = await Promise.all([
    db.computer.groupBy({ by: ["hostId"], where: { status: { in: LIVE_STATUSES } }, _count: { _all: true } }),
    db.computer.groupBy({ by: ["hostId"], where: { status: { in: LIVE_STATUSES }, organizationId, kind: "browser" }, _count: { _all: true } }),
  ]);
  const byHost = (rows: { hostId: string; _count: { _all: number } }[]) => new Map(rows.map((r) => [r.hostId, r._count._all]));
  return { all: byHost(all), organizationBrowsers: byHost(browsers) };
}
