// Quotas across the nodes of a cluster (docs/cluster.md "Quotas across nodes"). On
// PostgreSQL the organization's sessions on the other live nodes, and the rows it
// created there in the last minute, count against its quotas too: `QuotaGate.admit`
// adds them (`elsewhere`) to this node's own. One create per organization at a time
// on each node reads those counts and inserts its row (`SharedQuotaTurns.turn`), so
// two nodes that admit at the same instant can overshoot a quota by at most one
// session per other node. On SQLite there is one node and nothing here is read.
import type { ComputerKind } from "@/lib/computers/driver";
import { LIVE_STATUSES } from "@/lib/computers/sessions/lifecycle";
import type { QuotaElsewhere } from "@/lib/computers/sessions/quotas";
import { dbProvider, getDb } from "@/lib/db";

const WINDOW_MS = 60_000;

async function usageElsewhere(organizationId: string, selfHostId: string): Promise<QuotaElsewhere> {
  const db = getDb();
  const now = new Date();
  const others = { organizationId, hostId: { not: selfHostId } };
  const [liveNodes, live, recent] = await Promise.all([
    db.node.findMany({ where: { leaseUntil: { gt: now } }, select: { id: true } }),
    db.computer.findMany({
      where: { ...others, status: { in: LIVE_STATUSES } },
      select: { hostId: true, kind: true, expiresAt: true, idleExpiresAt: true, autoKill: true },
    }),
    db.computer.findMany({
      where: { ...others, createdAt: { gt: new Date(now.getTime() - WINDOW_MS) } },
      select: { createdAt: true },
    }),
  ]);
  // A node whose lease lapsed runs nothing a client can reach; a survivor ends its rows.
  const alive = new Set(liveNodes.map((n) => n.id));
  return {
    sessions: live
      .filter((row) => alive.has(row.hostId))
      .map((row) => ({ ...row, organizationId, kind: row.kind as ComputerKind, ending: null })),
    createdAt: recent.map((row) => row.createdAt.getTime()),
  };
}

export interface QuotaTurn {
  /** Null on SQLite (one node). */
  elsewhere: QuotaElsewhere | null;
  /** Called once the create's row is inserted, or it was refused: the next create of the organization here goes on. */
  release(): void;
  /** Runs the (synchronous) admission; a refusal releases the turn and is rethrown. */
  admitting(admit: () => void): void;
}

export class SharedQuotaTurns {
  private readonly turns = new Map<string, Promise<void>>();

  /**
   * Waits for the organization's previous create on this node to insert its row, then reads the other nodes' counts.
   */
  async turn(organizationId: string, selfHostId: string): Promise<QuotaTurn> {
    if (dbProvider() !== "postgresql") return { elsewhere: null, release: () => {}, admitting: (admit) => admit() };
    const previous = this.turns.get(organizationId) ?? Promise.resolve();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const mine = previous.then(() => gate);
    this.turns.set(organizationId, mine);
    await previous;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      open();
      if (this.turns.get(organizationId) === mine) this.turns.delete(organizationId);
    };
    try {
      const elsewhere = await usageElsewhere(organizationId, selfHostId);
      return { elsewhere, release, admitting: (admit) => admitOrRelease(admit, release) };
    } catch (err) {
      release();
      throw err;
    }
  }
}

function admitOrRelease(admit: () => void, release: () => void): void {
  try {
    admit();
  } catch (err) {
    release();
    throw err;
  }
}
