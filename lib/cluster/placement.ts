// Where a new session starts (docs/cluster.md "Placement"). Pure: the loads come
// from the computers table (exact, not the lease's snapshot), the capacities
// from the nodes table. An organization's browser sessions prefer a node that
// already runs its browser (one Chromium per organization per node); otherwise
// the least loaded node with room. The receiving node keeps the create when it
// is within one session of the least loaded (a hop costs more than that), and
// a node with no room (at capacity, or draining) hands it on.

export interface Candidate {
  id: string;
  url: string;
  /** Sessions it may hold (0 while it drains). */
  slots: number;
  /** Live sessions it runs now. */
  load: number;
  /** Live browser sessions of the creating organization on it. */
  organizationLoad: number;
}

/** The node to start the session on: `selfId` to start it here, another id to hand it on. */
export function chooseNode(candidates: readonly Candidate[], selfId: string): string {
  const withRoom = candidates.filter((c) => c.load < c.slots);
  if (!withRoom.length) return selfId; // nowhere better: this node answers its usual refusal
  const byLoad = [...withRoom].sort((x, y) => x.load / Math.max(1, x.slots) - y.load / Math.max(1, y.slots) || x.load - y.load || x.id.localeCompare(y.id));
  const organizations = withRoom.filter((c) => c.organizationLoad > 0).sort((x, y) => y.organizationLoad - x.organizationLoad || x.load - y.load);
  if (organizations.length) return organizations[0]!.id;
  const self = withRoom.find((c) => c.id === selfId);
  if (self && self.load <= byLoad[0]!.load + 1) return selfId;
  return byLoad[0]!.id;
}
