// @needs server light chromium
// Lightcone's newer task fields through HTTP, on the scripted upstream: a
// start with fields this server does not know still starts (they are ignored),
// metadata comes back, max_duration_seconds ends a task that runs past it with
// a clear end reason, and a task's stream (GET /agent/tasks/{id}/stream) is
// resumed after Last-Event-ID or from ?from=<seq>, with a replay_gap event when
// the events asked for are no longer kept (AGENT_TASK_EVENT_HISTORY is 4 here). A task whose session ends
// under it ends with end_reason session_ended, naming the session and why it ended.
// A finished task's last step screenshot is kept past the step screenshots' 15 minutes.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  agentCall,
  CLICK_TYPE_ENTER,
  ended,
  idleSteps,
  SCRIPTED_MODEL,
  startAgentWorld,
  waitForTask,
  type AgentWorld,
} from "./agent-fixtures";
import { waitFor } from "./wait-for";

let world: AgentWorld;

beforeAll(async () => {
  world = await startAgentWorld({ AGENT_TASK_EVENT_HISTORY: "4" });
}, 120_000);

afterAll(async () => {
  await world?.close();
});

const task = (extra: Record<string, unknown> = {}) => ({
  instruction: "Click Go, type hello agent and press Enter",
  kind: "browser",
  model: SCRIPTED_MODEL,
  start_url: `${world.page.url}/`,
  max_steps: 8,
  ...extra,
});

interface Received {
  id: number | null;
  event: string;
  data: any;
}

/** GET the task's stream and read it to its end (it closes after the final event). */
async function readStream(id: string, query = "", headers: Record<string, string> = {}) {
  const res = await fetch(`${world.server.url}/agent/tasks/${id}/stream${query}`, {
    headers: { authorization: `Bearer ${world.key}`, accept: "text/event-stream", ...headers },
  });
  const text = await res.text();
  const events: Received[] = text
    .split("\n\n")
    .filter((record) => /^event: /m.test(record))
    .map((record) => ({
      id: /^id: (\d+)$/m.test(record) ? Number(/^id: (\d+)$/m.exec(record)![1]) : null,
      event: /^event: (.*)$/m.exec(record)![1]!,
      data: JSON.parse(/^data: (.*)$/m.exec(record)![1]!),
    }));
  return { status: res.status, text, events };
}

describe("a task start with Lightcone's newer fields", () => {
  it("ignores fields it does not know and returns metadata", async () => {
    world.upstream.setScript(CLICK_TYPE_ENTER);
    const started = await agentCall(world, world.key, "POST", "/agent/tasks", {
      ...task({ metadata: { ticket: "T-9" } }),
      some_future_field: { nested: true },
      priority: "high",
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const done = await waitForTask(world, world.key, started.body.task_id, ended);
    expect(done).toMatchObject({ status: "completed", end_reason: "done", metadata: { ticket: "T-9" } });
    expect(JSON.stringify(done)).not.toContain("some_future_field");
    // Its last step's screenshot is kept past the 15 minutes of step screenshots, among the session's kept ones.
    const lastShot = new URL(done.steps.findLast((s: any) => s.screenshot_url).screenshot_url).pathname
      .split("/")
      .at(-1)!;
    const kept = path.join(world.server.dataDir, "kept-screenshots", done.computer_id, lastShot);
    await waitFor(() => existsSync(kept), { message: `the kept copy ${kept}` });
  });

  it("ends a task that runs past max_duration_seconds, saying so", async () => {
    world.upstream.setScript(idleSteps(200));
    const started = await agentCall(
      world,
      world.key,
      "POST",
      "/agent/tasks",
      task({ max_steps: 200, max_duration_seconds: 2 }),
    );
    expect(started.status).toBe(201);
    const done = await waitForTask(world, world.key, started.body.task_id, ended, 60_000);
    expect(done).toMatchObject({ status: "failed", end_reason: "max_duration" });
    expect(done.error?.message ?? done.error_message ?? JSON.stringify(done)).toMatch(/max_duration_seconds/);
    expect(done.step_count).toBeLessThan(200);
  });
});

describe("a task stream resumed", () => {
  let taskId: string;
  let last: number;

  beforeAll(async () => {
    world.upstream.setScript(CLICK_TYPE_ENTER);
    const started = await agentCall(world, world.key, "POST", "/agent/tasks", task());
    taskId = started.body.task_id;
    await waitForTask(world, world.key, taskId, ended);
    // Read from where history starts: the final event's id is the stream's length.
    const whole = await readStream(taskId);
    last = whole.events.at(-1)!.id!;
  });

  it("from the start: a replay_gap for the events no longer kept, then the last four, ending completed", async () => {
    const { status, events } = await readStream(taskId);
    expect(status).toBe(200);
    expect(last).toBeGreaterThan(4);
    expect(events[0]).toEqual({
      id: null,
      event: "replay_gap",
      data: { task_id: taskId, from: 1, first_available: last - 3, dropped: last - 4 },
    });
    expect(events.slice(1).map((e) => e.id)).toEqual([last - 3, last - 2, last - 1, last]);
    expect(events.at(-1)).toMatchObject({ event: "completed", data: { task_id: taskId, status: "completed" } });
  });

  it("after Last-Event-ID: only the events after it, no gap", async () => {
    const { events } = await readStream(taskId, "", { "last-event-id": String(last - 2) });
    expect(events.map((e) => e.id)).toEqual([last - 1, last]);
  });

  it("from ?from=<seq>: that event on", async () => {
    const { events } = await readStream(taskId, `?from=${last}`);
    expect(events.map((e) => [e.id, e.event])).toEqual([[last, "completed"]]);
  });

  it("refuses a resume point that is no sequence number, and another organization's task", async () => {
    expect((await readStream(taskId, "?from=abc")).status).toBe(400);
    expect((await readStream(taskId, "", { "last-event-id": "x1" })).status).toBe(400);
    const foreign = await fetch(`${world.server.url}/agent/tasks/${taskId}/stream`, {
      headers: { authorization: `Bearer ${world.keyB}` },
    });
    expect(foreign.status).toBe(404);
  });

  it("POST /agent/tasks/stream numbers its events the same way", async () => {
    world.upstream.setScript(CLICK_TYPE_ENTER);
    const res = await fetch(`${world.server.url}/agent/tasks/stream`, {
      method: "POST",
      headers: { authorization: `Bearer ${world.key}`, "content-type": "application/json" },
      body: JSON.stringify(task()),
    });
    const ids = [...(await res.text()).matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(4);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
  });
});

describe("a task whose session ends", () => {
  it("ends failed with end_reason session_ended, naming the session and the reason it ended", async () => {
    world.upstream.setScript(idleSteps(200));
    const session = await agentCall(world, world.key, "POST", "/computers", { kind: "browser" });
    expect(session.status).toBe(200);
    const id = session.body.id as string;
    const started = await agentCall(world, world.key, "POST", "/agent/tasks", {
      instruction: "Keep looking at the page",
      model: SCRIPTED_MODEL,
      computer_id: id,
      max_steps: 200,
    });
    expect(started.status).toBe(201);
    // Running on the session: at least one step taken.
    await waitForTask(world, world.key, started.body.task_id, (t) => t.step_count > 0 || ended(t));
    expect((await agentCall(world, world.key, "DELETE", `/computers/${id}`)).status).toBe(204);
    const done = await waitForTask(world, world.key, started.body.task_id, ended);
    expect(done).toMatchObject({ status: "failed", end_reason: "session_ended", error: { code: "session_ended" } });
    expect(done.error.message).toContain(id);
    expect(done.error.message).toContain("deleted");
  }, 60_000);
});
