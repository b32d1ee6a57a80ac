// What a node checks before it joins a cluster on PostgreSQL (docs/cluster.md
// "What must be shared, what must differ"): no live node has its id, every live
// node derives the same cluster key, and the secret is explicit when there are
// others. A row with this id and an unexpired lease is believed only when a node
// with that id and start time answers at its address: after a kill -9 the row
// outlives its process, and a restart must not wait out the lease.
//
// The restart's own server may already listen at that address when the check runs
// (Next runs `boot` once the server is up), and its health report waits for the boot:
// asked there, it would time out and look like a busy holder. So every probe carries
// this process's incarnation token, and a fast path before Next (`registerIncarnationProbe`)
// answers a probe bearing it at once: the address leads back here, so nothing else holds it.
import { randomBytes } from "node:crypto";
import { leaseState } from "@/lib/cluster/lease";
import { httpHandlersKey, type HttpHandler } from "@/lib/process-handles";
import { singleton } from "@/lib/singleton";

interface NodeFacts {
  id: string;
  url: string;
  startedAt: Date;
  leaseUntil: Date;
  reapedAt: Date | null;
  secretFingerprint: string;
}

/**
 * Asks `url` which node answers there: its id and start time; "self" when the address leads
 * to this very process; "busy" when something accepted but did not answer in time; null when
 * nothing answers as a node.
 */
export type NodeProbe = (url: string) => Promise<{ id: string; startedAt: string } | "self" | "busy" | null>;

const PROBE_TIMEOUT_MS = 3_000;
const PROBE_ATTEMPTS = 2;
const INCARNATION_HEADER = "x-cabin-incarnation";
/** This process's token: random per start, so no other process (an earlier one with the same id included) bears it. */
const INCARNATION = randomBytes(16).toString("hex");

/** Answers a probe of this process's own address before Next (whose routes wait for the boot that is probing). */
export function registerIncarnationProbe(): void {
  const answer: HttpHandler = (req, res) => {
    if (req.headers[INCARNATION_HEADER] !== INCARNATION || !req.url?.startsWith("/api/health")) return false;
    const body = JSON.stringify({ incarnation: INCARNATION });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
    return true;
  };
  singleton(httpHandlersKey, () => new Map()).set("cluster-incarnation", answer);
}

async function probeOnce(url: string): ReturnType<NodeProbe> {
  try {
    const res = await fetch(new URL("/api/health", url), {
      headers: { [INCARNATION_HEADER]: INCARNATION },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const body = (await res.json()) as {
      incarnation?: unknown;
      checks?: { cluster?: { node?: { id?: unknown; started_at?: unknown } } };
    };
    if (body.incarnation === INCARNATION) return "self";
    const node = body.checks?.cluster?.node;
    return typeof node?.id === "string" && typeof node.started_at === "string"
      ? { id: node.id, startedAt: node.started_at }
      : null;
  } catch (err) {
    // A timeout is a node too busy to answer, not an absent one.
    return (err as Error).name === "TimeoutError" ? "busy" : null;
  }
}

/** The node behind `url`, read from its health report (the `cluster` check); a timeout is asked again once. */
export const probeNode: NodeProbe = async (url) => {
  let answer: Awaited<ReturnType<NodeProbe>> = null;
  for (let attempt = 0; attempt < PROBE_ATTEMPTS; attempt++) {
    answer = await probeOnce(url);
    if (answer !== "busy") return answer;
  }
  return answer;
};

/** Why this node must not start, or null when it may. */
export async function refusalToJoin(input: {
  self: { id: string; secretFingerprint: string };
  existing: NodeFacts | null;
  others: readonly NodeFacts[];
  explicitSecret: boolean;
  now?: Date;
  probe?: NodeProbe;
}): Promise<string | null> {
  const now = input.now ?? new Date();
  const probe = input.probe ?? probeNode;
  const live = input.others.filter((n) => n.id !== input.self.id && leaseState(n, now) === "live");
  if (live.length && !input.explicitSecret) {
    return (
      `CABIN_SECRET is not set, but ${live.length} other node(s) (${live.map((n) => n.id).join(", ")}) use this ` +
      `database: ` +
      "every node of a cluster needs the same explicit CABIN_SECRET (logins, live-view tokens, saved states and " +
      "node-to-node signatures depend on it)."
    );
  }
  const differing = live.find((n) => n.secretFingerprint !== input.self.secretFingerprint);
  if (differing) {
    return (
      `CABIN_SECRET differs from node '${differing.id}' (${differing.url}): every node of a cluster needs the ` +
      `same CABIN_SECRET.`
    );
  }
  const holder = input.existing;
  if (holder && leaseState(holder, now) === "live") {
    const answer = await probe(holder.url);
    const same =
      answer === "busy" ||
      (answer !== null &&
        answer !== "self" &&
        answer.id === holder.id &&
        answer.startedAt === holder.startedAt.toISOString());
    if (same) {
      return (
        `Another node with id '${holder.id}' (HOST_ID) is live at ${holder.url} (lease ` +
        `until ${holder.leaseUntil.toISOString()}): ` +
        "give every node its own HOST_ID and NODE_URL."
      );
    }
  }
  return null;
}
