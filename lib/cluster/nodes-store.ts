// Database queries of the nodes table (docs/cluster.md). Every write that more
// than one node could attempt at once is a conditional update, so exactly one wins.
import { getDb } from "@/lib/db";

export type NodeRow = NonNullable<Awaited<ReturnType<typeof findNode>>>;

export interface NodeRegistration {
  id: string;
  url: string;
  browserSlots: number;
  desktopSlots: number;
  startedAt: Date;
  leaseUntil: Date;
  secretFingerprint: string;
}

export function findNode(id: string) {
  return getDb().node.findUnique({ where: { id } });
}

export function listNodes() {
  return getDb().node.findMany({ orderBy: { id: "asc" } });
}

/**
 * Takes the row for this node when its lease has lapsed (or `takeOver` says the
 * holder is gone), creates it when there is none. False: a live node holds it.
 */
export async function claimNode(input: NodeRegistration & { takeOver?: { startedAt: Date } }): Promise<boolean> {
  const now = input.startedAt;
  const data = {
    url: input.url, browserSlots: input.browserSlots, desktopSlots: input.desktopSlots, load: 0,
    startedAt: input.startedAt, renewedAt: now, leaseUntil: input.leaseUntil, reapedAt: null, secretFingerprint: input.secretFingerprint,
  };
  const held = input.takeOver ? { startedAt: input.takeOver.startedAt } : { leaseUntil: { lte: now } };
  const { count } = await getDb().node.updateMany({ where: { id: input.id, ...held }, data });
  if (count) return true;
  try {
    await getDb().node.create({ data: { id: input.id, ...data } });
    return true;
  } catch {
    return false; // the row exists (held), or another start created it first
  }
}

/**
 * Renews this process's lease; false when the row is no longer this process's
 * (another start took it) or, unless `afterReap`, when a survivor declared it dead.
 */
export async function renewLease(input: { id: string; startedAt: Date; now: Date; leaseUntil: Date; load: number; afterReap?: boolean }): Promise<boolean> {
  const { count } = await getDb().node.updateMany({
    where: { id: input.id, startedAt: input.startedAt, ...(input.afterReap ? {} : { reapedAt: null }) },
    data: { renewedAt: input.now, leaseUntil: input.leaseUntil, load: input.load, reapedAt: null },
  });
  return count > 0;
}

/** A clean stop: the lease ends now and the row says nobody need end its sessions (they ended). */
export async function releaseLease(input: { id: string; startedAt: Date; now: Date }): Promise<void> {
  await getDb().node.updateMany({ where: { id: input.id, startedAt: input.startedAt }, data: { leaseUntil: input.now, reapedAt: input.now, load: 0 } });
}

/** One survivor claims a dead node: only the update that still sees the lapsed, unreaped lease wins. */
export async function claimDeadNode(input: { id: string; leaseUntil: Date; now: Date }): Promise<boolean> {
  const { count } = await getDb().node.updateMany({
    where: { id: input.id, leaseUntil: input.leaseUntil, reapedAt: null },
    data: { reapedAt: input.now, load: 0 },
  });
  return count > 0;
}

/** A draining node: placement sends it nothing more. */
export async function offerNoSlots(input: { id: string; startedAt: Date }): Promise<void> {
  await getDb().node.updateMany({ where: { id: input.id, startedAt: input.startedAt }, data: { browserSlots: 0, desktopSlots: 0 } });
}
