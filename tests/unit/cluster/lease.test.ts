// @needs nothing
import { describe, expect, it } from "vitest";
import { deadNodes, leaseState, leaseUntil, renewEveryMs } from "@/lib/cluster/lease";
import { queryToken, sessionIdOfPath, taskIdOfPath } from "@/lib/cluster/forward-path";
import { chooseNode } from "@/lib/cluster/placement";
import { refusalToJoin, type NodeProbe } from "@/lib/cluster/start-checks";

const now = new Date("2026-11-28T01:00:00Z");
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
const node = (id: string, leaseSeconds: number, extra: { reapedAt?: Date; fingerprint?: string } = {}) => ({
  id,
  url: `http://127.0.0.1:1/${id}`,
  startedAt: at(-100),
  leaseUntil: at(leaseSeconds),
  reapedAt: extra.reapedAt ?? null,
  secretFingerprint: extra.fingerprint ?? "fp",
});

describe("lease math", () => {
  it("renews every third of the lease, at least every second", () => {
    expect(renewEveryMs(15)).toBe(5000);
    expect(renewEveryMs(3)).toBe(1000);
    expect(renewEveryMs(1)).toBe(1000);
    expect(leaseUntil(now, 15)).toEqual(at(15));
  });

  it("tells live, dead and reaped nodes apart; the boundary instant is lapsed", () => {
    expect(leaseState(node("a", 1), now)).toBe("live");
    expect(leaseState(node("a", 0), now)).toBe("dead");
    expect(leaseState(node("a", -5, { reapedAt: at(-1) }), now)).toBe("reaped");
    const nodes = [node("self", -10), node("b", -1), node("c", 5), node("d", -3, { reapedAt: at(-2) })];
    expect(deadNodes(nodes, "self", now).map((n) => n.id)).toEqual(["b"]);
  });
});

describe("session paths", () => {
  const id = "comp_0123456789abcdef01234567";
  it("names the session of /computers/{id}/… and /api/sessions/{id}/…", () => {
    expect(sessionIdOfPath(`/computers/${id}`)).toEqual({ id, surface: "computers" });
    expect(sessionIdOfPath(`/computers/${id}/ws?token=x`)).toEqual({ id, surface: "computers" });
    expect(sessionIdOfPath(`/api/sessions/${id}/tabs`)).toEqual({ id, surface: "dashboard" });
    expect(sessionIdOfPath("/computers")).toBeNull();
    expect(sessionIdOfPath("/computers/comp_short/execute")).toBeNull();
    expect(sessionIdOfPath("/api/sessions/options")).toBeNull();
    expect(sessionIdOfPath(`/v1/computers/${id}`)).toBeNull();
    expect(queryToken(`/computers/${id}/ws?token=abc&x=1`)).toBe("abc");
    expect(queryToken(`/computers/${id}/ws`)).toBeNull();
  });

  it("names the agent task of a task path, and nothing else", () => {
    const task = `task_${"b".repeat(24)}`;
    expect(taskIdOfPath(`/agent/tasks/${task}`)).toEqual({ id: task, surface: "computers" });
    expect(taskIdOfPath(`/agent/tasks/${task}/stop?x=1`)).toEqual({ id: task, surface: "computers" });
    expect(taskIdOfPath(`/api/tasks/${task}/pause`)).toEqual({ id: task, surface: "dashboard" });
    expect(taskIdOfPath("/agent/tasks")).toBeNull();
    expect(taskIdOfPath("/agent/tasks/stream")).toBeNull();
    expect(taskIdOfPath(`/v1/tasks/${task}`)).toBeNull();
  });
});

describe("joining a cluster", () => {
  const self = { id: "a", secretFingerprint: "fp" };
  const silent: NodeProbe = async () => null;
  it("lets a first node start, with or without an explicit secret", async () => {
    expect(
      await refusalToJoin({ self, existing: null, others: [], explicitSecret: false, now, probe: silent }),
    ).toBeNull();
  });

  it("refuses a second node without an explicit secret, or with another one", async () => {
    const others = [node("b", 10)];
    expect(await refusalToJoin({ self, existing: null, others, explicitSecret: false, now, probe: silent })).toMatch(
      /CABIN_SECRET is not set.*\(b\)/,
    );
    const differing = [node("b", 10, { fingerprint: "other" })];
    expect(
      await refusalToJoin({ self, existing: null, others: differing, explicitSecret: true, now, probe: silent }),
    ).toMatch(/CABIN_SECRET differs from node 'b'/);
    // A dead node's secret does not matter.
    expect(
      await refusalToJoin({ self, existing: null, others: [node("b", -1)], explicitSecret: false, now, probe: silent }),
    ).toBeNull();
  });

  it("refuses an id a live node answers for, and takes over one whose holder is gone", async () => {
    const holder = node("a", 10);
    const answering: NodeProbe = async () => ({ id: "a", startedAt: holder.startedAt.toISOString() });
    const restarted: NodeProbe = async () => ({ id: "a", startedAt: at(-1).toISOString() });
    const busy: NodeProbe = async () => "busy";
    const args = { self, existing: holder, others: [holder], explicitSecret: true, now };
    expect(await refusalToJoin({ ...args, probe: answering })).toMatch(/Another node with id 'a'.*own HOST_ID/);
    expect(await refusalToJoin({ ...args, probe: busy })).toMatch(/Another node with id 'a'/);
    expect(await refusalToJoin({ ...args, probe: silent })).toBeNull();
    expect(await refusalToJoin({ ...args, probe: restarted })).toBeNull();
    expect(await refusalToJoin({ ...args, existing: node("a", -1), probe: answering })).toBeNull();
    // The address leads back to the starting process itself (it already listens there): nothing else holds it.
    expect(await refusalToJoin({ ...args, probe: async () => "self" })).toBeNull();
  });
});

describe("placement", () => {
  const c = (id: string, load: number, slots = 10, organizationLoad = 0) => ({
    id,
    url: `http://${id}`,
    slots,
    load,
    organizationLoad,
  });
  it("keeps a create here when this node is within one of the least loaded", () => {
    expect(chooseNode([c("a", 3), c("b", 2), c("c", 5)], "a")).toBe("a");
    expect(chooseNode([c("a", 4), c("b", 2), c("c", 5)], "a")).toBe("b");
  });
  it("hands a create on from a node at capacity or draining, to the least loaded with room", () => {
    expect(chooseNode([c("a", 10), c("b", 7), c("c", 5)], "a")).toBe("c");
    expect(chooseNode([c("a", 0, 0), c("b", 3), c("c", 5)], "a")).toBe("b");
    expect(chooseNode([c("a", 10), c("b", 10)], "a")).toBe("a");
  });
  it("prefers a node that already runs the organization's browser, if it has room", () => {
    expect(chooseNode([c("a", 0), c("b", 6, 10, 2), c("c", 1)], "a")).toBe("b");
    expect(chooseNode([c("a", 0), c("b", 10, 10, 2), c("c", 1)], "a")).toBe("a");
  });
});
