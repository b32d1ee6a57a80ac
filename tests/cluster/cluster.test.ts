// @needs cluster chromium
// Three nodes on one PostgreSQL (docs/cluster.md): a session created through A
// is read, driven, watched (SSE, /ws) and reached over CDP through B and C; the
// dashboard on C shows a session running on A; a SIGKILLed node's sessions end
// as crashed within the lease while the others' keep working, and its restart
// touches nothing of theirs; a node with a live node's id, or without the shared
// secret, refuses to start; a forged forwarded request is refused; an ended session's replay comes from its node.
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sse } from "../api/stream-client";
import { createOrgKey, type TestServer } from "../api/harness";
import { startSite, type Site } from "../api/computers-fixtures";
import { download, finished } from "../api/replays-fixtures";
import { waitFor } from "../api/wait-for";
import {
  clusterView,
  ensurePostgres,
  hostOf,
  LEASE_SECONDS,
  openWs,
  signUpOn,
  startNode,
  stopPostgres,
  through,
  via,
} from "./cluster-fixtures";

let a: TestServer;
let b: TestServer;
let c: TestServer;
let key: string;
let site: Site;

beforeAll(async () => {
  await ensurePostgres();
  a = await startNode();
  [b, c] = await Promise.all([startNode({ databaseUrl: a.databaseUrl }), startNode({ databaseUrl: a.databaseUrl })]);
  key = await createOrgKey(a, "Cluster Org");
  site = await startSite();
}, 240_000);

afterAll(async () => {
  await site?.close();
  for (const s of [c, b].filter(Boolean)) await s.stop();
  await a?.destroy();
  for (const s of [c, b].filter(Boolean)) await s.destroy();
  await stopPostgres();
}, 120_000);

const create = async (node: TestServer) => {
  const res = await through(node, key, "POST", "/computers", { kind: "browser" });
  expect(res.status).toBe(200);
  return res.body as { id: string; endpoints: Record<string, string> };
};
const act = (node: TestServer, id: string, action: Record<string, unknown>) =>
  through(node, key, "POST", `/computers/${id}/execute`, { action });
const htmlOf = async (node: TestServer, id: string) =>
  (await act(node, id, { type: "get_html_content" })).body.result.html_content as string;

describe("a cluster of three nodes", () => {
  it("registers every node; each node's health shows all three live with its own id", async () => {
    const views = await waitFor(() => Promise.all([a, b, c].map(clusterView)), {
      until: (vs) => vs.every((v) => v.nodes.filter((n) => n.state === "live").length === 3),
      message: "three live nodes",
    });
    expect(new Set(views.map((v) => v.node.id)).size).toBe(3);
  });

  it("serves a session created on A through B and C: read, act, tabs, screenshot, events, /ws and CDP", async () => {
    const s = await create(a);
    const read = await through(b, key, "GET", `/computers/${s.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: s.id, kind: "browser" });
    // The owner answers, with the caller's request id carried across.
    const traced = await fetch(`${c.url}/computers/${s.id}/status`, {
      headers: { authorization: `Bearer ${key}`, "x-request-id": "req_cluster_trace_1" },
    });
    expect(traced.status).toBe(200);
    expect(traced.headers.get("x-request-id")).toBe("req_cluster_trace_1");

    const events = await sse({ base: b.url, key }, `/computers/${s.id}/events`);
    expect(events.status).toBe(200);
    expect((await act(b, s.id, { type: "go_to_url", url: `${site.url}/form` })).body.status).toBe("success");
    await events.until((e) => e.event === "action_response", 20_000);
    expect(await htmlOf(c, s.id)).toContain('id="q"');

    const tab = await through(c, key, "POST", `/computers/${s.id}/tabs`, { url: `${site.url}/page?n=two` });
    expect(tab.status).toBe(200);
    const tabs = await through(b, key, "GET", `/computers/${s.id}/tabs`);
    expect(tabs.body.result.tabs.map((t: { url: string }) => t.url)).toContain(`${site.url}/page?n=two`);
    expect((await through(b, key, "POST", `/computers/${s.id}/tabs/tab_main/switch`)).status).toBe(200);

    const shot = await through(c, key, "POST", `/computers/${s.id}/screenshot`, { base64: true });
    expect(shot.status).toBe(200);
    expect(Buffer.from(shot.body.result.screenshot, "base64").subarray(1, 4).toString()).toBe("PNG");
    const linked = await through(b, key, "POST", `/computers/${s.id}/screenshot`, {});
    const image = await fetch(via(c, linked.body.result.screenshot_url));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toMatch(/^image\//);

    // /ws through C: frames out, typed text in (the form's field has focus).
    const view = openWs(via(c, s.endpoints.ws));
    await view.opened;
    await waitFor(async () => view.binary.length, { until: (n) => n > 0, message: "a frame through C" });
    view.send({ type: "pointer", action: "down", x: 100, y: 20 });
    view.send({ type: "pointer", action: "up", x: 100, y: 20 });
    view.send({ type: "text", text: "through-c" });
    view.send({ type: "key", action: "down", key: "Enter" });
    view.send({ type: "key", action: "up", key: "Enter" });
    await waitFor(() => htmlOf(b, s.id), {
      until: (h) => h.includes("ENTER"),
      message: "input sent through C's /ws to reach the page",
    });
    view.ws.close();

    // connectOverCDP through B (token URL) and through C (the key in a header).
    for (const [node, headers] of [
      [b, undefined],
      [c, { authorization: `Bearer ${key}` }],
    ] as const) {
      const cdpUrl = via(node, s.endpoints.cdp);
      const browser = await chromium.connectOverCDP(headers ? cdpUrl.replace(/\?token=.*$/, "") : cdpUrl, {
        headers,
        timeout: 30_000,
      });
      const pages = browser.contexts()[0]!.pages();
      expect(pages.map((p) => p.url())).toContain(`${site.url}/form`);
      const form = pages.find((p) => p.url() === `${site.url}/form`)!;
      expect(await form.inputValue("#q")).toBe("through-c");
      await browser.close();
    }

    expect((await through(c, key, "DELETE", `/computers/${s.id}`)).status).toBe(204);
    const ended = await events.until((e) => e.event === "ended", 20_000);
    expect(ended.at(-1)!.data).toEqual({ reason: "deleted", timestamp: expect.any(String) });
    expect((await act(b, s.id, { type: "get_html_content" })).status).toBe(409);
  });

  it("lets the dashboard on C list and open a session running on A", async () => {
    const member = await signUpOn(a, "Dana");
    const made = await member.request(a, "POST", "/api/sessions", { kind: "browser" });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const list = await member.request(c, "GET", "/api/sessions");
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(id);
    const shown = await member.request(c, "GET", `/api/sessions/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id, kind: "browser", termination_reason: null });
    // Tabs are read from the running browser: only A, the owner, can have answered.
    expect(shown.body.tabs?.length).toBeGreaterThan(0);
    // Live on C: the session's live view through C's address.
    const view = openWs(via(c, shown.body.endpoints.ws));
    await view.opened;
    await waitFor(async () => view.binary.length, { until: (n) => n > 0, message: "a live frame on C" });
    view.ws.close();
    // A key is not a login, on the forwarding node as anywhere.
    expect((await through(c, key, "GET", `/api/sessions/${id}`)).status).toBe(401);
    expect((await member.request(b, "DELETE", `/api/sessions/${id}`)).status).toBeLessThan(300);
  });

  it("serves an ended session's replay (list and MP4) from the node that recorded it, through another", async () => {
    const made = await through(a, key, "POST", "/computers", { kind: "browser", record: true });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.id as string;
    const owner = await hostOf(a.databaseUrl, id);
    const views = await Promise.all([a, b, c].map(clusterView));
    const other = [a, b, c].find((_, i) => views[i]!.node.id !== owner)!;
    const [replay] = (await through(other, key, "GET", `/computers/${id}/replays`)).body.data;
    expect((await act(other, id, { type: "go_to_url", url: `${site.url}/form` })).body.status).toBe("success");
    const since = () => Date.now() - Date.parse(replay.started_at);
    await waitFor(async () => since(), { until: (ms) => ms >= 1_500, message: "1.5 s recorded" });
    expect((await through(other, key, "DELETE", `/computers/${id}`)).status).toBe(204);
    expect((await finished(id, replay.replay_id, { base: other.url, key })).status).toBe("ready");
    const file = await download(id, replay.replay_id, { base: other.url, key });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("video/mp4");
    expect(file.data.subarray(4, 8).toString()).toBe("ftyp");
  });

  it("refuses forged node-to-node requests", async () => {
    const s = await create(a);
    const forged = await fetch(`${b.url}/computers/${s.id}`, {
      headers: { "x-cabin-node": "node-x", "x-cabin-node-time": String(Date.now()), "x-cabin-node-signature": "AAAA" },
    });
    expect(forged.status).toBe(401);
    expect((await forged.json()).error.message).toMatch(/signature is invalid/);
    const stamped = await fetch(`${a.url}/computers/${s.id}`, { headers: { authorization: "CabinForwarded abc.def" } });
    expect(stamped.status).toBe(401);
    await through(a, key, "DELETE", `/computers/${s.id}`);
  });

  // Also: its restart touches nothing of theirs.
  it("ends a SIGKILLed node's sessions as crashed within the lease; the others keep working", async () => {
    // One organization per node: an organization's browsers would all join one node (placement).
    const keys = { a: key, b: await createOrgKey(a, "Org on B"), c: await createOrgKey(a, "Org on C") };
    const onA = await create(a);
    const onB = (await through(b, keys.b, "POST", "/computers", { kind: "browser" })).body as { id: string };
    const onC = (await through(c, keys.c, "POST", "/computers", { kind: "browser" })).body as { id: string };
    for (const [node, id] of [
      [a, onA.id],
      [b, onB.id],
      [c, onC.id],
    ] as const)
      expect(await hostOf(a.databaseUrl, id)).toBe(`node-${node.port}`);
    const killedAt = Date.now();
    await b.kill("SIGKILL");
    // Read through the list (not forwarded): the lease, not a refused connection, ends them.
    const statusOf = async (id: string) => {
      const { body } = await through(a, keys.b, "GET", "/computers?limit=100");
      return ((Array.isArray(body) ? body : body.data) as { id: string; status: string }[]).find((x) => x.id === id)
        ?.status;
    };
    await waitFor(() => statusOf(onB.id), {
      until: (st) => st === "terminated",
      timeoutMs: (LEASE_SECONDS * 3 + 10) * 1000,
      message: "B's session to end",
    });
    const crashed = await through(c, keys.b, "GET", `/computers/${onB.id}`);
    expect(crashed.body).toMatchObject({ status: "terminated", termination_reason: "crashed" });
    expect(Date.parse(crashed.body.terminated_at)).toBeLessThanOrEqual(killedAt + 1000);
    const refused = await through(a, keys.b, "POST", `/computers/${onB.id}/execute`, {
      action: { type: "get_html_content" },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("conflict");
    expect((await through(c, keys.b, "DELETE", `/computers/${onB.id}`)).status).toBe(204);
    const dead = (await clusterView(a)).nodes.find((n) => n.id === `node-${b.port}`);
    expect(dead?.state).toBe("reaped");

    const works = async (node: TestServer, k: string, id: string) =>
      (await through(node, k, "POST", `/computers/${id}/execute`, { action: { type: "get_html_content" } })).status;
    expect(await works(c, key, onA.id)).toBe(200);
    expect(await works(a, keys.c, onC.id)).toBe(200);

    // Restarted with the same id, address and data directory, and (for the placement test) no slots.
    b = await startNode({
      databaseUrl: a.databaseUrl,
      dataDir: b.dataDir,
      port: b.port,
      env: { HOST_ID: `node-${b.port}`, NODE_BROWSER_SLOTS: "0" },
    });
    await waitFor(() => clusterView(a), {
      until: (v) => v.nodes.filter((n) => n.state === "live").length === 3,
      message: "B live again",
    });
    expect(await works(b, key, onA.id)).toBe(200);
    expect(await works(b, keys.c, onC.id)).toBe(200);
    for (const [k, id] of [
      [key, onA.id],
      [keys.c, onC.id],
    ] as const) {
      expect((await through(k === key ? a : c, k, "GET", `/computers/${id}`)).body.status).toBe("running");
      expect((await through(b, k, "DELETE", `/computers/${id}`)).status).toBe(204);
    }
  });

  it("refuses to start a node with a live node's id, or without the shared CABIN_SECRET", async () => {
    const idOfA = (await clusterView(a)).node.id;
    await Promise.all([
      expect(startNode({ databaseUrl: a.databaseUrl, env: { HOST_ID: idOfA } })).rejects.toThrow(
        /Another node with id '.*' \(HOST_ID\) is live/,
      ),
      expect(startNode({ databaseUrl: a.databaseUrl, env: { CABIN_SECRET: undefined } })).rejects.toThrow(
        /CABIN_SECRET is not set/,
      ),
      expect(
        startNode({ databaseUrl: a.databaseUrl, env: { CABIN_SECRET: "another-cluster-secret-0123456789abcdef" } }),
      ).rejects.toThrow(/CABIN_SECRET differs/),
    ]);
    // A is untouched by the refused starts.
    expect((await clusterView(a)).nodes.filter((n) => n.state === "live").length).toBe(3);
  });

  // Also: an organization's browsers join its browser's node.
  it("places creates: a node without room hands them on", async () => {
    // B came back offering no slots (the failure test restarted it so).
    const full = b;
    const fullId = (await clusterView(full)).node.id;
    const handed = await create(full);
    expect([a, b, c].map((n) => `node-${n.port}`)).toContain(await hostOf(a.databaseUrl, handed.id));
    expect(await hostOf(a.databaseUrl, handed.id)).not.toBe(fullId);
    // Read and ended through the node that handed it on.
    expect((await through(full, key, "GET", `/computers/${handed.id}`)).body.status).toMatch(/^(ready|running)$/);
    expect((await through(full, key, "DELETE", `/computers/${handed.id}`)).status).toBe(204);

    const other = await createOrgKey(a, "Placement Org");
    const first = await through(c, other, "POST", "/computers", { kind: "browser" });
    expect(await hostOf(a.databaseUrl, first.body.id)).toBe(`node-${c.port}`);
    const second = await through(a, other, "POST", "/computers", { kind: "browser" });
    expect(second.status).toBe(200);
    expect(await hostOf(a.databaseUrl, second.body.id)).toBe(`node-${c.port}`);
    for (const id of [first.body.id, second.body.id])
      expect((await through(c, other, "DELETE", `/computers/${id}`)).status).toBe(204);
  });
});
