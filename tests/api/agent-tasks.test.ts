// Agent tasks through HTTP against a running server with a real Chromium and
// database, driven by the scripted computer-use upstream: a task completes on
// a loopback page with the click and the text recorded there; the stream
// carries every step; pause holds the loop, an injected message reaches the
// next model call, resume and stop work; a zero budget ends the task with
// insufficient_quota; bad input and foreign ids are refused; the limit on
// running tasks holds.
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
import { runCli } from "./harness";
import { closeDbs, db } from "./models-helpers";
import { waitFor } from "./wait-for";

let world: AgentWorld;

beforeAll(async () => {
  world = await startAgentWorld({ AGENT_ORG_MAX_RUNNING_TASKS: "2" });
}, 120_000);

afterAll(async () => {
  await closeDbs();
  await world?.close();
});

const start = (body: Record<string, unknown>, key = world.key) => agentCall(world, key, "POST", "/agent/tasks", body);
const browserTask = (extra: Record<string, unknown> = {}) => ({
  instruction: "Click Go, type hello agent and press Enter",
  kind: "browser",
  model: SCRIPTED_MODEL,
  start_url: `${world.page.url}/`,
  max_steps: 8,
  ...extra,
});

/** POST /agent/tasks/stream, read as Server-Sent Events. */
async function openStream(body: Record<string, unknown>) {
  const res = await fetch(`${world.server.url}/agent/tasks/stream`, {
    method: "POST",
    headers: { authorization: `Bearer ${world.key}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const events: Array<{ event: string; data: any }> = [];
  /** Reads until an event matches; returns it. */
  const until = async (match: (e: { event: string; data: any }) => boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find((e, i) => i >= cursor && match(e));
      if (found) {
        cursor = events.indexOf(found) + 1;
        return found;
      }
      if (Date.now() > deadline) throw new Error(`no matching event; read: ${events.map((e) => e.event).join(",")}`);
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`stream ended; read: ${events.map((e) => e.event).join(",")}`);
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
        const record = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const name = /^event: (.*)$/m.exec(record)?.[1];
        const data = /^data: (.*)$/m.exec(record)?.[1];
        if (name && data) events.push({ event: name, data: JSON.parse(data) });
      }
    }
  };
  let cursor = 0;
  return { events, until, taskId: res.headers.get("x-agent-task-id")!, cancel: () => reader.cancel() };
}

describe("agent tasks on the scripted upstream", () => {
  it("a task on a loopback page completes with the page's recorded click and text, billed and stored step by step", async () => {
    world.upstream.setScript(CLICK_TYPE_ENTER);
    const res = await start(browserTask({ metadata: { run: "one" } }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "running", reused: false });
    expect(res.body.task_id).toMatch(/^task_[0-9a-f]{24}$/);
    const task = await waitForTask(world, world.key, res.body.task_id, ended);
    expect(task).toMatchObject({
      status: "completed",
      exit_code: 0,
      end_reason: "done",
      result: "typed hello agent",
      step_count: 4,
      model: SCRIPTED_MODEL,
      kind: "browser",
      metadata: { run: "one" },
      usage: { input_tokens: 4 * 42, output_tokens: 4 * 7, total_tokens: 4 * 49 },
    });
    expect(task.steps.map((s: any) => s.action?.type ?? null)).toEqual(["click", "type", "keypress", null]);
    expect(task.steps[0].model_text).toBe("I will click Go.");
    expect(task.steps[0].screenshot_url).toMatch(
      new RegExp(`^${world.server.url}/computers/${task.computer_id}/screenshots/`),
    );
    for (const step of task.steps) expect(step.timings_ms.total).toBeGreaterThanOrEqual(step.timings_ms.model);
    // The page reports each event with a request of its own, which may land just after the task's end.
    await expect
      .poll(() => world.page.records, { timeout: 10_000 })
      .toEqual([
        { type: "click", x: 650, y: 325 },
        { type: "submit", text: "hello agent" },
      ]);
    // The upstream saw the Lightcone computer tool, the done function and the screenshot of the page.
    const first = world.upstream.requests.at(-4)!.body;
    expect(first.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "computer_use", display_width: 1280, display_height: 720 }),
        expect.objectContaining({ type: "function", name: "done" }),
      ]),
    );
    expect(first.tool_choice).toBe("required");
    // The session the task made is ended with it; the model calls are in the organization's usage.
    const session = await agentCall(world, world.key, "GET", `/computers/${task.computer_id}`);
    expect(session.body.status).toBe("terminated");
    // Tasks record by default: the task names its replay, which becomes a video once its session ended.
    expect(task.replay_id).toMatch(/^rep_[0-9a-f]{24}$/);
    const replay = await waitFor(
      async () =>
        (await agentCall(world, world.key, "GET", `/computers/${task.computer_id}/replays`)).body.data.find(
          (r: any) => r.replay_id === task.replay_id,
        ),
      { until: (r) => r?.status === "ready", timeoutMs: 30_000, message: "the task's replay ready" },
    );
    expect(replay).toMatchObject({ task_id: task.task_id, width: 1280, height: 720 });
    const video = await fetch(replay.replay_view_url, { headers: { authorization: `Bearer ${world.key}` } });
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    const rows = await waitFor(
      () =>
        db(world.server.databaseUrl).usageRecord.findMany({ where: { model: SCRIPTED_MODEL, endpoint: "responses" } }),
      {
        until: (found) => found.length >= 4,
        message: "the task's usage rows",
      },
    );
    expect(rows.every((row) => row.inputTokens === 42 && row.outputTokens === 7 && row.status === 200)).toBe(true);
  }, 90_000);

  it("a task on an existing browser session (computer_id, no kind) is a browser task, its steps in screen pixels, the session left running", async () => {
    const session = await agentCall(world, world.key, "POST", "/computers", { kind: "browser" });
    expect(session.status).toBe(200);
    world.upstream.setScript([{ text: "Clicking the middle", action: { type: "click", x: 500, y: 500 } }]);
    const res = await start({
      instruction: "Click the middle",
      model: SCRIPTED_MODEL,
      computer_id: session.body.id,
      record: false,
    });
    expect(res.status).toBe(201);
    expect(res.body.computer_id).toBe(session.body.id);
    const task = await waitForTask(world, world.key, res.body.task_id, ended);
    expect(task).toMatchObject({
      status: "completed",
      kind: "browser",
      started_by: { type: "api_key" },
      replay_id: null,
    });
    expect((await agentCall(world, world.key, "GET", `/computers/${session.body.id}/replays`)).body.data).toEqual([]);
    // The model's 0–1000 point and the same point on the 1280×720 screen.
    expect(task.steps[0].action).toMatchObject({ type: "click", x: 500, y: 500 });
    expect(task.steps[0].screen_action).toMatchObject({ type: "click", x: 640, y: 360 });
    expect((await agentCall(world, world.key, "GET", `/computers/${session.body.id}`)).body.status).not.toBe(
      "terminated",
    );
    const list = await agentCall(world, world.key, "GET", "/agent/tasks");
    expect(list.body.data.find((t: any) => t.task_id === task.task_id)).toMatchObject({ kind: "browser" });
    expect((await agentCall(world, world.key, "DELETE", `/computers/${session.body.id}`)).status).toBeLessThan(300);
  }, 60_000);

  it("the stream names every step: started, action, screenshot, step, message, completed", async () => {
    world.upstream.setScript(CLICK_TYPE_ENTER);
    const stream = await openStream(browserTask());
    const startedEvent = await stream.until((e) => e.event === "started");
    expect(startedEvent.data).toMatchObject({ task_id: stream.taskId, status: "running" });
    const completed = await stream.until((e) => e.event === "completed");
    expect(completed.data).toMatchObject({ task_id: stream.taskId, status: "completed", result: "typed hello agent" });
    const steps = stream.events.filter((e) => e.event === "step").map((e) => e.data.index);
    expect(steps).toEqual([0, 1, 2, 3]);
    expect(stream.events.filter((e) => e.event === "action").map((e) => e.data.type)).toEqual([
      "click",
      "type",
      "keypress",
    ]);
    expect(stream.events.filter((e) => e.event === "screenshot")).toHaveLength(3);
    expect(stream.events.find((e) => e.event === "message")!.data).toMatchObject({
      role: "assistant",
      text: "I will click Go.",
    });
  }, 60_000);

  it("pause holds the loop (no step for 3 s), an injected message joins the next model call, resume goes on, stop ends it and its session", async () => {
    world.upstream.setScript(idleSteps(200));
    const stream = await openStream(browserTask({ max_steps: 200 }));
    await stream.until((e) => e.event === "step");
    expect((await agentCall(world, world.key, "POST", `/agent/tasks/${stream.taskId}/pause`)).body).toEqual({
      status: "paused",
      task_id: stream.taskId,
    });
    await stream.until((e) => e.event === "paused");
    const held = (await agentCall(world, world.key, "GET", `/agent/tasks/${stream.taskId}`)).body;
    expect(held.status).toBe("paused");
    const injected = await agentCall(world, world.key, "POST", `/agent/tasks/${stream.taskId}/messages`, {
      message: "Also look at the footer",
    });
    expect(injected.body).toEqual({ status: "queued", task_id: stream.taskId, queued_messages: 1 });
    const requestsWhilePaused = world.upstream.requests.length;
    // The issue's own measure of "paused": three seconds in which no step runs.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = (await agentCall(world, world.key, "GET", `/agent/tasks/${stream.taskId}`)).body;
    expect(after.step_count).toBe(held.step_count);
    expect(world.upstream.requests.length).toBe(requestsWhilePaused);

    expect((await agentCall(world, world.key, "POST", `/agent/tasks/${stream.taskId}/resume`)).body).toEqual({
      status: "running",
      task_id: stream.taskId,
    });
    await stream.until((e) => e.event === "resumed");
    const next = await stream.until((e) => e.event === "step");
    expect(next.data.injected_messages).toEqual(["Also look at the footer"]);
    const nextRequest = world.upstream.requests[requestsWhilePaused]!.body;
    expect(JSON.stringify(nextRequest.input)).toContain("Also look at the footer");

    const stopped = await agentCall(world, world.key, "POST", `/agent/tasks/${stream.taskId}/stop`);
    expect(stopped.body).toEqual({ status: "stopped", task_id: stream.taskId });
    await stream.until((e) => e.event === "stopped");
    const final = (await agentCall(world, world.key, "GET", `/agent/tasks/${stream.taskId}`)).body;
    expect(final).toMatchObject({ status: "stopped", exit_code: 1, end_reason: "stopped" });
    expect((await agentCall(world, world.key, "GET", `/computers/${final.computer_id}`)).body.status).toBe(
      "terminated",
    );
    expect((await agentCall(world, world.key, "POST", `/agent/tasks/${stream.taskId}/pause`)).status).toBe(409);
  }, 90_000);

  it("a budget of zero ends the task failed with insufficient_quota, its session ended", async () => {
    const org = JSON.parse(await runCli(world.server, ["org", "create", "Broke Org", "--with-key", "--json"])) as {
      slug: string;
      key: string;
    };
    await runCli(world.server, ["org", "budget", org.slug, "0"]);
    world.upstream.setScript(CLICK_TYPE_ENTER);
    const res = await start(browserTask(), org.key);
    expect(res.status).toBe(201);
    const task = await waitForTask(world, org.key, res.body.task_id, ended);
    expect(task).toMatchObject({ status: "failed", exit_code: 1, end_reason: "insufficient_quota", step_count: 0 });
    expect(task.error.message).toMatch(/budget/i);
    expect((await agentCall(world, org.key, "GET", `/computers/${task.computer_id}`)).body.status).toBe("terminated");
  }, 60_000);

  it("refuses bad input with a 4xx naming the field, and leaves nothing behind", async () => {
    const missing = await start({ kind: "browser" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/instruction/);
    // A field the server does not know is ignored (newer SDKs send more); a known one is still checked.
    const unknown = await start({ instruction: "x", colour: "red", kind: "tablet" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/kind/);
    expect(unknown.body.error.message).not.toMatch(/colour/);
    const steps = await start({ instruction: "x", max_steps: 0 });
    expect(steps.status).toBe(400);
    expect(steps.body.error.message).toMatch(/max_steps/);
    const model = await start({ instruction: "x", kind: "browser", model: "no.such-model" });
    expect(model.status).toBe(404);
    expect(model.body.error.message).toMatch(/no\.such-model/);
    const live = await agentCall(world, world.key, "GET", "/computers?type=live");
    expect(live.body).toEqual([]);
    const message = await agentCall(world, world.key, "POST", "/agent/tasks/task_000000000000000000000000/messages", {
      message: "",
    });
    expect(message.status).toBe(400);
  });

  it("another organization's task is not found; the running-task limit holds", async () => {
    world.upstream.setScript(idleSteps(400));
    const a = await start(browserTask({ max_steps: 200 }));
    const b = await start(browserTask({ max_steps: 200 }));
    expect([a.status, b.status]).toEqual([201, 201]);
    const third = await start(browserTask());
    expect(third.status).toBe(429);
    expect(third.body.error.message).toMatch(/AGENT_ORG_MAX_RUNNING_TASKS/);
    expect((await agentCall(world, world.keyB, "GET", `/agent/tasks/${a.body.task_id}`)).status).toBe(404);
    expect((await agentCall(world, world.keyB, "POST", `/agent/tasks/${a.body.task_id}/stop`)).status).toBe(404);
    for (const id of [a.body.task_id, b.body.task_id]) {
      expect((await agentCall(world, world.key, "POST", `/agent/tasks/${id}/stop`)).body.status).toBe("stopped");
    }
    const list = await agentCall(world, world.key, "GET", "/agent/tasks");
    expect(list.body.data.map((t: any) => t.task_id)).toEqual(expect.arrayContaining([a.body.task_id, b.body.task_id]));
  }, 60_000);
});
