// @needs cluster chromium desktop
// What three nodes on one PostgreSQL share beyond forwarding (docs/cluster.md):
// an organization's quota counts its sessions on every node; a saved state larger
// than STATE_INLINE_MAX_BYTES saved on one node restores on another; an agent
// task or MCP tool call aimed at another node's session runs on that node; a desktop created through one node is driven
// (action, screenshot, exec stream) through a second and deleted through the third.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBrowserState, setBrowserState, startSite, type Site } from "../api/computers-fixtures";
import { canRunDesktops, desktopImagesDir } from "../api/desktop-fixtures";
import { idleSteps, SCRIPTED_MODEL } from "../api/agent-fixtures";
import { startScriptedUpstream, type ScriptedUpstream } from "../api/scripted-cua-upstream";
import { createOrgKey, type TestServer } from "../api/harness";
import { ndjson, sse } from "../api/stream-client";
import { waitFor } from "../api/wait-for";
import {
  clusterView,
  createdOn,
  ensurePostgres,
  hostOf,
  queryRows,
  readUntil,
  startNode,
  stopPostgres,
  through,
} from "./cluster-fixtures";

const QUOTA = 2;
/** Smaller than any browser state, so every save takes the large path. */
const INLINE_MAX = 64;
// One slot per node: an organization's second and third creates land on other nodes.
const NODE_ENV = {
  NODE_BROWSER_SLOTS: "1",
  ORG_MAX_BROWSER_SESSIONS: String(QUOTA),
  STATE_INLINE_MAX_BYTES: String(INLINE_MAX),
  ...(canRunDesktops ? { DESKTOP_IMAGES_DIR: desktopImagesDir() } : {}),
};

let a: TestServer;
let b: TestServer;
let c: TestServer;
let site: Site;
let upstream: ScriptedUpstream;
const ids: Record<string, string> = {};

beforeAll(async () => {
  await ensurePostgres();
  upstream = await startScriptedUpstream();
  const models = JSON.stringify({
    [SCRIPTED_MODEL]: { backend: "openai-compatible", url: upstream.url, responses: "native" },
  });
  const env = { ...NODE_ENV, MODELS: models };
  a = await startNode({ env });
  [b, c] = await Promise.all(
    [0, 1].map(() => startNode({ databaseUrl: a.databaseUrl, env })) as [Promise<TestServer>, Promise<TestServer>],
  );
  site = await startSite();
  const views = await waitFor(() => Promise.all([a, b, c].map(clusterView)), {
    until: (vs) => vs.every((v) => v.nodes.filter((n) => n.state === "live").length === 3),
    message: "three live nodes",
  });
  [ids.a, ids.b, ids.c] = views.map((v) => v.node.id);
}, 240_000);

afterAll(async () => {
  await site?.close();
  await upstream?.close();
  for (const s of [c, b, a].filter(Boolean)) await s.stop();
  for (const s of [c, b, a].filter(Boolean)) await s.destroy();
  await stopPostgres();
}, 120_000);

const query = <T extends pg.QueryResultRow>(sql: string, params: unknown[]) => queryRows<T>(a.databaseUrl, sql, params);

const create = (node: TestServer, key: string, body: Record<string, unknown> = {}) =>
  through(node, key, "POST", "/computers", { kind: "browser", ...body });

describe("shared across the nodes of a cluster", () => {
  // Also: C refuses the third as one node would.
  it("counts an organization's sessions on every node: quota 2 spread over A, B", async () => {
    const key = await createOrgKey(a, "Quota Spread");
    const first = await createdOn(a, key);
    const second = await createdOn(b, key);
    expect([await hostOf(a.databaseUrl, first), await hostOf(a.databaseUrl, second)]).toEqual([ids.a, ids.b]);

    const refused = await create(c, key);
    expect(refused.status, JSON.stringify(refused.body)).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.body.error.message).toContain("ORG_MAX_BROWSER_SESSIONS");
    expect(refused.body.error.message).toContain(`may run ${QUOTA} browser sessions at once`);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const rows = await query<{ n: string }>(
      `SELECT count(*) AS n FROM computers WHERE "organizationId" = (SELECT "organizationId" FROM computers ` +
        `WHERE id = $1)`,
      [first],
    );
    expect(Number(rows[0]!.n)).toBe(2); // nothing half-made by the refusal

    // Ending one on A (through C) frees a slot for a create anywhere.
    expect((await through(c, key, "DELETE", `/computers/${first}`)).status).toBe(204);
    const third = await createdOn(c, key);
    for (const id of [second, third]) expect((await through(a, key, "DELETE", `/computers/${id}`)).status).toBe(204);
  });

  it("restores a state larger than STATE_INLINE_MAX_BYTES saved on A in a session that starts on C", async () => {
    const key = await createOrgKey(a, "State Spread");
    const saved = await createdOn(a, key, { persistent: true });
    expect(await hostOf(a.databaseUrl, saved)).toBe(ids.a);
    await setBrowserState(saved, site, "crossnode", { base: a.url, key });
    expect((await through(a, key, "DELETE", `/computers/${saved}`)).status).toBe(204);
    // The state is saved as the session's tear-down ends; poll for its row.
    const row = await waitFor(
      async () =>
        (
          await query<{ size: number; inline: boolean; file: string | null }>(
            `SELECT "sizeBytes" AS size, data IS NOT NULL AS inline, "filePath" AS file FROM computer_states WHERE ` +
              `"computerId" = $1`,
            [saved],
          )
        )[0],
      { until: (r) => r !== undefined, message: "the saved state's row" },
    );
    expect(row!.size).toBeGreaterThan(INLINE_MAX);
    expect(row).toMatchObject({ inline: true, file: null });

    const restored = await createdOn(c, key, { environment_id: saved });
    expect(await hostOf(a.databaseUrl, restored)).toBe(ids.c);
    expect(await readBrowserState(restored, site, { base: c.url, key })).toBe("crossnode|crossnode|crossnode");
    expect((await through(b, key, "DELETE", `/computers/${restored}`)).status).toBe(204);
  });

  it("sends an agent task and an MCP tool call on another node's session to that node", async () => {
    const key = await createOrgKey(a, "Agent Spread");
    const session = await createdOn(a, key);
    expect(await hostOf(a.databaseUrl, session)).toBe(ids.a);

    upstream.setScript(idleSteps(400));
    const task = await through(b, key, "POST", "/agent/tasks", {
      instruction: "look",
      model: SCRIPTED_MODEL,
      computer_id: session,
    });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    const taskId = task.body.task_id as string;
    const [row] = await query<{ hostId: string }>('SELECT "hostId" FROM agent_tasks WHERE id = $1', [taskId]);
    expect(row!.hostId).toBe(ids.a);
    expect(task.body.computer_id).toBe(session);
    const stopped = await through(c, key, "POST", `/agent/tasks/${taskId}/stop`);
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);

    const client = new Client({ name: "cabin-cluster-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${b.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const shot = await client.callTool({ name: "screenshot", arguments: { session_id: session } });
      expect(shot.isError, JSON.stringify(shot.content).slice(0, 300)).toBeFalsy();
      expect((shot.content as Array<{ type: string }>).some((part) => part.type === "image")).toBe(true);
    } finally {
      await client.close();
    }
    // The session stayed on A, served through B and C.
    expect((await through(b, key, "GET", `/computers/${session}`)).body.status).not.toBe("terminated");
    expect((await through(c, key, "DELETE", `/computers/${session}`)).status).toBe(204);
  });

  it("serves a task running on B through A and C: read, pause, resume, stop", async () => {
    const key = await createOrgKey(a, "Task Spread");
    upstream.setScript(idleSteps(400));
    const started = await through(b, key, "POST", "/agent/tasks", {
      instruction: "wait",
      model: SCRIPTED_MODEL,
      start_url: `${site.url}/form`,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const taskId = started.body.task_id as string;
    const [row] = await query<{ hostId: string }>('SELECT "hostId" FROM agent_tasks WHERE id = $1', [taskId]);
    expect(row!.hostId).toBe(ids.b);
    const read = (node: TestServer) => through(node, key, "GET", `/agent/tasks/${taskId}`);
    await waitFor(async () => (await read(c)).body.status, { until: (s) => s === "running", message: "task running" });

    const paused = await through(a, key, "POST", `/agent/tasks/${taskId}/pause`);
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect((await read(c)).body.status).toBe("paused");
    expect((await through(c, key, "POST", `/agent/tasks/${taskId}/resume`)).status).toBe(200);
    const stopped = await through(a, key, "POST", `/agent/tasks/${taskId}/stop`);
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    await waitFor(async () => (await read(c)).body.status, { until: (s) => s === "stopped", message: "task stopped" });
  });

  it("streams a task started through B on A's session from A, and follows it through C", async () => {
    const key = await createOrgKey(a, "Task Streams");
    const session = await createdOn(a, key);
    expect(await hostOf(a.databaseUrl, session)).toBe(ids.a);
    upstream.setScript(idleSteps(400));
    // The body names A's session: the one forwarder reads it and A answers with the task's SSE stream.
    const start = new AbortController();
    const started = await fetch(`${b.url}/agent/tasks/stream`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ instruction: "look", model: SCRIPTED_MODEL, computer_id: session }),
      signal: start.signal,
    });
    expect(started.status).toBe(200);
    expect(started.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const taskId = started.headers.get("x-agent-task-id")!;
    const [row] = await query<{ hostId: string }>('SELECT "hostId" FROM agent_tasks WHERE id = $1', [taskId]);
    expect(row!.hostId).toBe(ids.a);
    expect(await readUntil(started.body!, taskId)).toContain(taskId);
    start.abort(); // the task keeps running (docs/agent-tasks.md "Streaming")

    // C does not run the task: it hands the stream to A, from the first event.
    const followed = await sse({ base: c.url, key }, `/agent/tasks/${taskId}/stream`);
    expect(followed.status, await followed.text()).toBe(200);
    const event = await followed.next(30_000);
    expect(event?.data.task_id).toBe(taskId);
    expect((await through(c, key, "POST", `/agent/tasks/${taskId}/stop`)).status).toBe(200);
    const ended = await followed.until((e) => e.event === "stopped", 30_000);
    expect(ended.at(-1)?.event).toBe("stopped");
    expect((await through(b, key, "DELETE", `/computers/${session}`)).status).toBe(204);
  });

  it.skipIf(!canRunDesktops)(
    "drives a desktop created through A from B (action, screenshot, exec stream) and deletes it through C",
    async () => {
      const key = await createOrgKey(a, "Desktop Spread");
      const desktop = await through(a, key, "POST", "/computers", { kind: "desktop" });
      expect(desktop.status, JSON.stringify(desktop.body)).toBe(200);
      const id = desktop.body.id as string;
      // Whichever node placement chose, the two others drive it and delete it.
      const owner = await hostOf(a.databaseUrl, id);
      const [other, third] = [a, b, c].filter((_, i) => [ids.a, ids.b, ids.c][i] !== owner) as [TestServer, TestServer];

      const moved = await through(other, key, "POST", `/computers/${id}/execute`, {
        action: { type: "move", x: 40, y: 30 },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body.status).toBe("success");
      const shot = await through(other, key, "POST", `/computers/${id}/screenshot`, { base64: true });
      expect(shot.status).toBe(200);
      expect(Buffer.from(shot.body.result.screenshot, "base64").subarray(1, 4).toString()).toBe("PNG");

      const exec = await ndjson({ base: other.url, key }, `/computers/${id}/exec`, {
        command: "echo one; echo two; exit 4",
      });
      expect(exec.status).toBe(200);
      expect(exec.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
      const lines = await exec.rest(30_000);
      expect(
        lines
          .filter((l) => l.type === "stdout")
          .map((l) => l.data)
          .join(""),
      ).toBe("one\ntwo\n");
      expect(lines.at(-1)).toEqual({ type: "exit", code: 4 });

      expect((await through(third, key, "DELETE", `/computers/${id}`)).status).toBe(204);
      expect((await through(b, key, "GET", `/computers/${id}`)).body.status).toBe("terminated");
    },
    120_000,
  );

  // Last: it kills a node. Nothing restarted, so the task's end names the node's death, not a restart.
  it("fails a task whose node was killed with node_lost, naming the node", async () => {
    const key = await createOrgKey(a, "Agent On A Dying Node");
    const session = await createdOn(c, key);
    const owner = await hostOf(a.databaseUrl, session);
    const nodes = { [ids.a]: a, [ids.b]: b, [ids.c]: c };
    const dying = nodes[owner]!;
    const survivor = [a, b, c].find((node) => node !== dying)!;
    upstream.setScript(idleSteps(1_000));
    const task = await through(survivor, key, "POST", "/agent/tasks", {
      instruction: "look",
      model: SCRIPTED_MODEL,
      computer_id: session,
      max_steps: 200,
    });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    const taskId = task.body.task_id as string;
    await dying.kill("SIGKILL");
    // Its stream through a survivor is not refused: the node's death is found, and the failure streamed.
    const stream = await sse({ base: survivor.url, key }, `/agent/tasks/${taskId}/stream`);
    expect(stream.status, await stream.text()).toBe(200);
    expect((await stream.until((e) => e.event === "failed", 90_000)).at(-1)!.data.end_reason).toBe("node_lost");
    const ended = await waitFor(async () => (await through(survivor, key, "GET", `/agent/tasks/${taskId}`)).body, {
      until: (t) => t.status === "failed",
      timeoutMs: 90_000,
      message: "the task on the killed node to fail",
    });
    expect(ended.end_reason).toBe("node_lost");
    expect(ended.error.message).toContain(owner);
    expect(ended.error.message).not.toMatch(/restarted/);
  }, 150_000);
});
