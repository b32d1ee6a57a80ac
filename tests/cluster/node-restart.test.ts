// @needs cluster chromium
// A node killed with SIGKILL restarts at once with the same HOST_ID, NODE_URL and data
// folder, while its old row's lease still stands (docs/cluster.md "What must be shared,
// what must differ"): its restart may probe its own address, where nothing but itself
// answers. The sessions it left end as crashed. A real duplicate — a process that
// claims the same HOST_ID and NODE_URL while the node answers there — is still refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, type TestServer } from "../api/harness";
import { waitFor } from "../api/wait-for";
import { clusterView, ensurePostgres, startNode, stopPostgres, through } from "./cluster-fixtures";

// A lease far longer than a restart: a restart that waited it out would show.
const LONG_LEASE = { NODE_LEASE_SECONDS: "120" };

let node: TestServer;
let key: string;

beforeAll(async () => {
  await ensurePostgres();
  node = await startNode({ env: LONG_LEASE });
  key = await createOrgKey(node, "Restart Org");
}, 240_000);

afterAll(async () => {
  await node?.destroy();
  await stopPostgres();
}, 120_000);

const leaseOf = async (server: TestServer) => {
  const view = await clusterView(server);
  const row = (view.nodes as unknown as { id: string; lease_until: string; renewed_at: string }[]).find(
    (n) => n.id === view.node.id,
  )!;
  return { id: view.node.id, startedAt: view.node.started_at, leaseUntil: Date.parse(row.lease_until) };
};

describe("a node restarted right after kill -9", () => {
  it("takes its row over at once, ends the sessions it left, and still refuses a live duplicate", async () => {
    const created = await through(node, key, "POST", "/computers", { kind: "browser" });
    expect(created.status).toBe(200);
    const before = await leaseOf(node);
    const id = `node-${node.port}`;
    expect(before.id).toBe(id);

    await node.kill("SIGKILL");
    node = await startNode({
      databaseUrl: node.databaseUrl,
      dataDir: node.dataDir,
      port: node.port,
      env: { ...LONG_LEASE, HOST_ID: id },
    });
    const after = await waitFor(() => leaseOf(node), {
      until: (l) => l.startedAt !== before.startedAt,
      message: "the restarted node registered",
    });
    expect(after.id).toBe(id);
    // Up while the killed process's lease still stood: it did not wait the lease out.
    expect(Date.now()).toBeLessThan(before.leaseUntil);

    const left = await waitFor(() => through(node, key, "GET", `/computers/${created.body.id}`), {
      until: (r) => r.body.status === "terminated",
      message: "the killed node's session to end",
    });
    expect(left.body.termination_reason).toBe("crashed");
    // The restarted node serves.
    const fresh = await through(node, key, "POST", "/computers", { kind: "browser" });
    expect(fresh.status).toBe(200);
    expect((await through(node, key, "DELETE", `/computers/${fresh.body.id}`)).status).toBe(204);

    // Same id and address while the node answers there: refused, and the node is untouched.
    await expect(
      startNode({ databaseUrl: node.databaseUrl, env: { ...LONG_LEASE, HOST_ID: id, NODE_URL: node.url } }),
    ).rejects.toThrow(/Another node with id '.*' \(HOST_ID\) is live/);
    expect((await leaseOf(node)).startedAt).toBe(after.startedAt);
  });
});
