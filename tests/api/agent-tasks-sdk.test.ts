// @needs server light chromium
// The public Lightcone SDK's six agent.tasks methods, sent exactly as its
// TypeScript client sends them (sdks/typescript/src/resources/agent/tasks.ts:
// method, path, headers, body or none), with each answer checked against the
// SDK's response types (TaskStartResponse, TaskRetrieveStatusResponse, …),
// written here as zod schemas of the same fields.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ended, idleSteps, SCRIPTED_MODEL, startAgentWorld, waitForTask, type AgentWorld } from "./agent-fixtures";
import { parseSseText } from "@/lib/api/sse-reader";

let world: AgentWorld;

beforeAll(async () => {
  world = await startAgentWorld();
}, 120_000);

afterAll(async () => {
  await world?.close();
});

// The SDK's response interfaces, field for field (optional where the SDK says `?`).
const TaskStartResponse = z.object({
  status: z.string(),
  task_id: z.string(),
  idempotency_key: z.string().optional(),
  reused: z.boolean().optional(),
});
const TaskRetrieveStatusResponse = z.object({
  status: z.string(),
  task_id: z.string(),
  exit_code: z.number().optional(),
});
const StatusOnly = z.object({ status: z.string() }); // TaskPauseResponse, TaskResumeResponse, TaskInjectMessageResponse

/** What the Stainless-generated client puts on every request. */
function sdkHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    accept: "application/json",
    authorization: `Bearer ${world.key}`,
    "user-agent": "Lightcone/JS 0.19.1",
    "x-stainless-lang": "js",
    "x-stainless-package-version": "0.19.1",
    "x-stainless-os": "Linux",
    "x-stainless-arch": "x64",
    "x-stainless-runtime": "node",
    "x-stainless-runtime-version": process.version,
    "x-stainless-retry-count": "0",
    "x-stainless-timeout": "60",
    ...extra,
  };
}

/**
 * `this._client.post(path, {body})`: JSON body; `post(path, options)` with no body: none at all, and no content-type.
 */
async function sdkPost(path: string, body?: unknown, extra: Record<string, string> = {}) {
  return fetch(`${world.server.url}${path}`, {
    method: "POST",
    headers: sdkHeaders(body === undefined ? extra : { "content-type": "application/json", ...extra }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe("the SDK's agent.tasks methods, as the SDK sends them", () => {
  it("start, retrieveStatus, pause, injectMessage, resume, startStream answer the SDK's types", async () => {
    world.upstream.setScript(idleSteps(300));
    // tasks.start(body): every field the SDK's TaskStartParams documents.
    const params = {
      instruction: "Look at the page",
      kind: "browser",
      model: SCRIPTED_MODEL,
      max_steps: 200,
      screenshot_mode: "url",
      temperature: 0.2,
      viewport_width: 1024,
      viewport_height: 768,
      agent_type: "legacy",
      persistent: false,
      start_url: `${world.page.url}/`,
      metadata: { ticket: "T-1" },
      idempotency_key: "sdk-start-1",
      stream_mode: "concise",
      harness_version: "v2",
      thread_id: "thread-1",
      agent_icon: "robot",
    };
    const startRes = await sdkPost("/agent/tasks", params);
    expect(startRes.status).toBeLessThan(300);
    const started = TaskStartResponse.parse(await startRes.json());
    expect(started).toMatchObject({ status: "running", idempotency_key: "sdk-start-1", reused: false });

    // A retried start with the same idempotency key answers the same task.
    const again = TaskStartResponse.parse(await (await sdkPost("/agent/tasks", params)).json());
    expect(again).toMatchObject({ task_id: started.task_id, reused: true });

    // tasks.retrieveStatus(id): GET, no body.
    const statusRes = await fetch(`${world.server.url}/agent/tasks/${started.task_id}`, { headers: sdkHeaders() });
    const status = TaskRetrieveStatusResponse.parse(await statusRes.json());
    expect(status.task_id).toBe(started.task_id);
    expect(["running", "paused"]).toContain(status.status);

    // tasks.pause(id) and tasks.resume(id): POST with no body; tasks.injectMessage(id, {message}).
    expect(StatusOnly.parse(await (await sdkPost(`/agent/tasks/${started.task_id}/pause`)).json()).status).toBe(
      "paused",
    );
    expect(
      StatusOnly.parse(
        await (await sdkPost(`/agent/tasks/${started.task_id}/messages`, { message: "hurry up" })).json(),
      ).status,
    ).toBe("queued");
    expect(StatusOnly.parse(await (await sdkPost(`/agent/tasks/${started.task_id}/resume`)).json()).status).toBe(
      "running",
    );
    await waitForTask(world, world.key, started.task_id, (t) =>
      t.steps.some((s: any) => s.injected_messages.includes("hurry up")),
    );
    await sdkPost(`/agent/tasks/${started.task_id}/stop`);
    const final = TaskRetrieveStatusResponse.parse(await waitForTask(world, world.key, started.task_id, ended));
    expect(final).toMatchObject({ status: "stopped", exit_code: 1 });

    // tasks.startStream(body): Accept text/event-stream; the SDK's Stream reads `event:`/`data:` records.
    world.upstream.setScript([{ done: { result: "nothing to do" } }]);
    const streamRes = await sdkPost(
      "/agent/tasks/stream",
      { instruction: "Finish at once", kind: "browser", model: SCRIPTED_MODEL },
      { accept: "text/event-stream" },
    );
    expect(streamRes.status).toBe(200);
    expect(streamRes.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await streamRes.text();
    const events = parseSseText(text).flatMap((item) =>
      item.type === "event" ? [{ event: item.event, data: JSON.parse(item.data) }] : [],
    );
    expect(events.map((e) => e.event)).toEqual(["started", "step", "completed"]);
    for (const e of events) expect(typeof e.data.task_id).toBe("string");
    expect(events.at(-1)!.data).toMatchObject({ status: "completed", result: "nothing to do" });
  }, 90_000);

  it("errors are JSON in the /computers envelope, never an HTML page", async () => {
    const res = await fetch(`${world.server.url}/agent/tasks/task_000000000000000000000000`, { headers: sdkHeaders() });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect((await res.json()).error).toMatchObject({
      code: expect.any(String),
      message: expect.stringMatching(/task_000000000000000000000000/),
    });
    const unauthorized = await fetch(`${world.server.url}/agent/tasks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(unauthorized.status).toBe(401);
    expect((await unauthorized.json()).error.code).toBeDefined();
  });
});
