// Lease arithmetic of cluster nodes (docs/cluster.md "Nodes and leases"). Pure.

export interface LeaseRow {
  id: string;
  leaseUntil: Date;
  reapedAt: Date | null;
}

/** A node renews its lease every third of it, so two renewals may fail before it lapses. */
export function renewEveryMs(leaseSeconds: number): number {
  return Math.max(1000, Math.floor((leaseSeconds * 1000) / 3));
}

export function leaseUntil(now: Date, leaseSeconds: number): Date {
  return new Date(now.getTime() + leaseSeconds * 1000);
}

/** live: holds its lease; dead: the lease lapsed and nobody has ended its sessions yet; reaped: somebody did. */
export function leaseState(node: LeaseRow, now: Date): "live" | "dead" | "reaped" {
  if (node.leaseUntil.getTime() > now.getTime()) return "live";
  return node.reapedAt ? "reaped" : "dead";
}

/** The nodes whose sessions a survivor must end now (never this node itself). */
export function deadNodes<T extends LeaseRow>(nodes: readonly T[], selfId: string, now: Date): T[] {
  return nodes.filter((n) => n.id !== selfId && leaseState(n, now) === "dead");
}
