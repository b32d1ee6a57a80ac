// This process as a node of the cluster (docs/cluster.md): it claims its row in
// the nodes table at start (refusing to start beside a live node with its id, or
// without the secret the others share), renews its lease every third of
// NODE_LEASE_SECONDS, keeps the other nodes' addresses for forwarding, and ends
// what a node whose lease lapsed left (one survivor does, see claimDeadNode): its
// death is announced to the parts that registered for it (`onNodeDeath`: its
// sessions end, then its agent tasks fail).
// On SQLite there is one node: it registers, and nothing else changes.
import { keyFingerprint } from "@/lib/cluster/cluster-key";
import { deadNodes, leaseState, leaseUntil, renewEveryMs } from "@/lib/cluster/lease";
import * as nodes from "@/lib/cluster/nodes-store";
import { announceNodeDeath, clusterSessions } from "@/lib/cluster/ports";
import { refusalToJoin } from "@/lib/cluster/start-checks";
import { dbProvider } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { getLogger } from "@/lib/logger";

/** The first lease lasts at least this long: a node still starting is not declared dead. */
const START_GRACE_SECONDS = 60;

/** Thrown by `start` when this node must not run; the message says why and what to change. */
export class NodeStartRefused extends Error {}

export class ClusterNode {
  readonly id = getEnv().HOST_ID;
  readonly url = getEnv().NODE_URL ?? `http://127.0.0.1:${getEnv().PORT}`;
  readonly leaseSeconds = getEnv().NODE_LEASE_SECONDS;
  /** Several nodes may share the database (PostgreSQL): forwarding and reaping are on. */
  readonly shared = dbProvider() === "postgresql";
  readonly startedAt = new Date();
  /** When the previous process with this id last renewed its lease (null: first start). */
  previousRenewal: Date | null = null;
  /** Stopping: creates are handed on (placement sees no room here). */
  draining = false;
  private view: nodes.NodeRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  /** Registers this node; throws NodeStartRefused when it must not start. */
  async start(): Promise<void> {
    const fingerprint = keyFingerprint();
    const registration = {
      // The first lease covers the rest of the start-up (Chromium, models), which may hold the event loop longer than a
      // lease.
      id: this.id,
      url: this.url,
      startedAt: this.startedAt,
      leaseUntil: leaseUntil(this.startedAt, Math.max(this.leaseSeconds, START_GRACE_SECONDS)),
      secretFingerprint: fingerprint,
      browserSlots: getEnv().NODE_BROWSER_SLOTS,
      desktopSlots: getEnv().DESKTOP_ENABLED ? getEnv().DESKTOP_MAX_SESSIONS : 0,
    };
    const existing = await nodes.findNode(this.id);
    this.previousRenewal = existing?.renewedAt ?? null;
    if (this.shared) {
      const refusal = await refusalToJoin({
        self: registration,
        existing,
        others: await nodes.listNodes(),
        explicitSecret: Boolean(getEnv().CABIN_SECRET),
      });
      if (refusal) throw new NodeStartRefused(refusal);
    }
    const claimed = await nodes.claimNode({
      ...registration,
      takeOver: existing ? { startedAt: existing.startedAt } : undefined,
    });
    if (!claimed)
      throw new NodeStartRefused(
        `Another process claimed node id '${this.id}' (HOST_ID) at the same moment; give every node its own HOST_ID.`,
      );
    await this.refresh();
    this.timer = setInterval(() => void this.tick(), renewEveryMs(this.leaseSeconds));
    this.timer.unref();
  }

  /** Every node as last read (at most a third of the lease old). */
  nodes(): readonly nodes.NodeRow[] {
    return this.view;
  }

  /**
   * The address of a node holding its lease, or null when it is not live (as of the last read, read again once on a
   * miss).
   */
  async liveUrlOf(nodeId: string): Promise<string | null> {
    const now = new Date();
    let node = this.view.find((n) => n.id === nodeId);
    if (!node || leaseState(node, now) !== "live") {
      await this.refresh();
      node = this.view.find((n) => n.id === nodeId);
    }
    return node && leaseState(node, now) === "live" ? node.url : null;
  }

  /**
   * Ends a node's sessions if nobody has: after its lease lapsed, or at once when it
   * refused a connection (`unreachable`: nothing listens at its address, it is gone).
   */
  async reap(nodeId: string, options: { unreachable?: boolean } = {}): Promise<void> {
    if (!this.shared || nodeId === this.id) return;
    const node = await nodes.findNode(nodeId);
    if (!node) return;
    const now = new Date();
    if (leaseState(node, now) === "reaped" || (leaseState(node, now) === "live" && !options.unreachable)) return;
    if (node.reapedAt) return;
    if (!(await nodes.claimDeadNode({ id: node.id, leaseUntil: node.leaseUntil, now }))) return;
    const at = node.renewedAt;
    const ended = await announceNodeDeath({ id: node.id, lastSeen: at });
    getLogger().warn(
      {
        node: node.id,
        ...ended,
        lastRenewal: at.toISOString(),
        unreachable: Boolean(options.unreachable),
      },
      "ended the sessions of a dead node",
    );
    await this.refresh();
  }

  private async refresh(): Promise<void> {
    this.view = await nodes.listNodes();
  }

  private tick(): Promise<void> {
    this.ticking ??= this.renewAndReap()
      .catch((err) => getLogger().warn({ err }, "node lease renewal failed"))
      .finally(() => (this.ticking = null));
    return this.ticking;
  }

  private async renewAndReap(): Promise<void> {
    const now = new Date();
    const sessions = clusterSessions();
    const lease = {
      id: this.id,
      startedAt: this.startedAt,
      now,
      leaseUntil: leaseUntil(now, this.leaseSeconds),
      load: sessions.liveCount(),
    };
    if (!(await nodes.renewLease(lease))) {
      const row = await nodes.findNode(this.id);
      if (row?.startedAt.getTime() === this.startedAt.getTime()) {
        // Declared dead during a stall longer than the lease: a survivor ended this node's sessions
        // as crashed, so nothing may keep running them (no zombies); then this node lives on.
        getLogger().error(
          { node: this.id, sessions: sessions.liveCount() },
          "this node's lease lapsed and its sessions were ended by another node; stopping them here",
        );
        sessions.crashAllHere();
        await nodes.renewLease({ ...lease, load: 0, afterReap: true });
      } else {
        getLogger().error(
          { node: this.id },
          "this node's row was claimed by another start with the same HOST_ID; its sessions may have been ended",
        );
      }
    }
    await this.refresh();
    if (!this.shared) return;
    for (const dead of deadNodes(this.view, this.id, now)) await this.reap(dead.id);
  }

  /** The start of a clean stop: no more creates here, on this node or from the others (its row offers no slots). */
  async drain(): Promise<void> {
    this.draining = true;
    await nodes.offerNoSlots({ id: this.id, startedAt: this.startedAt });
  }

  /** A clean stop (after the sessions ended): the lease ends now, so a restart need not wait for it. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
    await nodes.releaseLease({ id: this.id, startedAt: this.startedAt, now: new Date() });
  }
}
