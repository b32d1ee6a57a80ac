// What the cluster asks of the parts it serves (docs/cluster.md "Forwarding", "When a node dies"): which node
// runs a session or a task, who a request's caller is, this node's sessions, and what a dead node's end means
// to each part. The session domain, agent tasks and the logins register their answers before the node starts
// (`boot`), the way they register OrganizationResources, so lib/cluster imports none of them.
import type { ForwardedIdentity } from "@/lib/cluster/signature";
import { singleton, singletonKey } from "@/lib/singleton";

/** Where a session or a task runs, and for whom. */
export interface Owner {
  hostId: string;
  organizationId: string;
  /** Still running: a live session, a queued, running or paused task. */
  live: boolean;
}

/** The session domain, as the cluster sees it. */
export interface ClusterSessions {
  /** This process runs it: answered here with no lookup. */
  isHere(id: string): boolean;
  ownerOf(id: string): Promise<Owner | null>;
  /** Live sessions per node, all of them and the organization's browsers (placement of a create). */
  liveLoads(organizationId: string): Promise<{ all: Map<string, number>; organizationBrowsers: Map<string, number> }>;
  /** How many sessions this process runs (the node's load in its lease). */
  liveCount(): number;
  /** This node was declared dead during a stall and its sessions ended elsewhere: stop running them here. */
  crashAllHere(): void;
}

/** Agent tasks, as the cluster sees them (a task's loop runs on the node that started it). */
export interface ClusterTasks {
  ownerOf(id: string): Promise<Owner | null>;
}

/** Who calls, as the handlers would decide it; null when they would refuse. */
export interface ClusterCallers {
  apiKey(authorization: string): Promise<ForwardedIdentity | null>;
  member(headers: Headers): Promise<ForwardedIdentity | null>;
}

/** Ends what a dead node left (its sessions, its tasks), as of when it was last seen; answers how many. */
export type NodeDeathHandler = (node: { id: string; lastSeen: Date }) => Promise<number>;

interface Ports {
  sessions: ClusterSessions | null;
  tasks: ClusterTasks | null;
  callers: ClusterCallers | null;
  /** In registration order: sessions end before the tasks that drove them are failed. */
  nodeDeath: Map<string, NodeDeathHandler>;
}

const PORTS = singletonKey<Ports>("clusterPorts");
const ports = () => singleton(PORTS, () => ({ sessions: null, tasks: null, callers: null, nodeDeath: new Map() }));

export function registerClusterPorts(input: Partial<Omit<Ports, "nodeDeath">>): void {
  Object.assign(ports(), Object.fromEntries(Object.entries(input).filter(([, v]) => v)));
}

function registered<K extends "sessions" | "tasks" | "callers">(name: K): NonNullable<Ports[K]> {
  const port = ports()[name];
  if (!port) throw new Error(`The cluster has no ${name} port: its part registers one before the node starts (boot)`);
  return port as NonNullable<Ports[K]>;
}

export const clusterSessions = () => registered("sessions");
export const clusterTasks = () => registered("tasks");
export const clusterCallers = () => registered("callers");

/** `name` ends its part of a dead node's work when the node's death is announced. */
export function onNodeDeath(name: string, handler: NodeDeathHandler): void {
  ports().nodeDeath.set(name, handler);
}

/** Announces a node's death to every registered part, in order; how many of each it ended. */
export async function announceNodeDeath(node: { id: string; lastSeen: Date }): Promise<Record<string, number>> {
  const ended: Record<string, number> = {};
  for (const [name, handler] of ports().nodeDeath) ended[name] = await handler(node);
  return ended;
}
