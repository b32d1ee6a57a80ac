// Hand-off to a person through HTTP, on the scripted upstream and a real browser session
// (docs/agent-tasks.md "Hand-off to a person"): request_human → awaiting_human and needs_human with a
// take-over link that opens without a login (forged or expired: refused); no model call while it waits;
// a click through the link's live view lands on the real page; resume {note} reaches the next model
// request. A client's hand-off and the link's Done; 409s when finished; MCP's progress.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  agentCall,
  ended,
  idleSteps,
  SCRIPTED_MODEL,
  startAgentWorld,
  waitForTask,
  type AgentWorld,
} from "./agent-fixtures";
import { follow, openLiveView, signedToken, type Event } from "./agent-handoff-helpers";
import { waitFor } from "./wait-for";

let world: AgentWorld;

beforeAll(async () => {
  world = await startAgentWorld();
}, 120_000);

afterAll(async () => {
  await world?.close();
});

const task = (extra: Record<string, unknown> = {}) => ({
  instruction: "Open the inbox (a person logs in)",
  kind: "browser",
  model: SCRIPTED_MODEL,
  start_url: `${world.page.url}/`,
  max_steps: 8,
  ...extra,
});

describe("the model asks for a person", () => {
  let taskId: string;
  let stream: Awaited<ReturnType<typeof follow>>;
  let needsHuman: Event;
  let requestsAtWait: number;

  beforeAll(async () => {
    world.upstream.setScript([
      {
        text: "The inbox asks for a login.",
        call: { name: "request_human", arguments: { reason: "Log in with the code" } },
      },
      { done: { result: "the inbox is open" } },
    ]);
    const started = await agentCall(world, world.key, "POST", "/agent/tasks", task());
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    taskId = started.body.task_id;
    stream = await follow(world, taskId);
    needsHuman = await stream.until((e) => e.event === "needs_human");
    requestsAtWait = world.upstream.requests.length;
  }, 60_000);

  afterAll(() => stream?.cancel());

  it("offers request_human, and the task waits: awaiting_human in the task, the list and needs_human", async () => {
    const tools = world.upstream.requests[0]!.body.tools.map((t: { name?: string; type: string }) => t.name ?? t.type);
    expect(tools).toContain("request_human");
    expect(needsHuman.data).toMatchObject({
      task_id: taskId,
      reason: "Log in with the code",
      requested_by: "the agent",
      dashboard_url: `${world.server.url}/tasks/${taskId}`,
    });
    expect(needsHuman.data.live_view_url).toMatch(
      new RegExp(`^${world.server.url}/takeover/${taskId}\\?token=\\d+\\.`),
    );
    const read = (await agentCall(world, world.key, "GET", `/agent/tasks/${taskId}`)).body;
    expect(read).toMatchObject({
      status: "awaiting_human",
      handoff: { id: needsHuman.data.handoff_id, reason: "Log in with the code", resumed_at: null },
    });
    expect(read.exit_code).toBeUndefined();
    expect(read.steps.at(-1).action).toEqual({ type: "request_human", reason: "Log in with the code" });
    const list = (await agentCall(world, world.key, "GET", "/agent/tasks")).body;
    expect(list.data.find((t: { task_id: string }) => t.task_id === taskId).status).toBe("awaiting_human");
    // Another organization sees none of it.
    expect((await agentCall(world, world.keyB, "POST", `/agent/tasks/${taskId}/resume`, {})).status).toBe(404);
  });

  it("the link opens without a login; a forged, expired or wrong-task token is refused", async () => {
    const page = await fetch(needsHuman.data.live_view_url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Log in with the code");
    expect(html).toMatch(/Take control/);

    const token = new URL(needsHuman.data.live_view_url).searchParams.get("token")!;
    const [expiry, mac] = token.split(".") as [string, string];
    const forged = `${expiry}.${mac.slice(0, -2)}${mac.endsWith("AA") ? "BB" : "AA"}`;
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = signedToken(world, taskId, needsHuman.data.handoff_id, past);
    for (const bad of [forged, expired, `${Number(expiry) + 3600}.${mac}`]) {
      const refused = await fetch(`${world.server.url}/takeover/${taskId}?token=${encodeURIComponent(bad)}`);
      expect(refused.status, bad).toBe(404);
      expect(await refused.text()).toContain("This take-over link does not work");
      const done = await fetch(
        `${world.server.url}/agent/tasks/${taskId}/handoff/done?token=${encodeURIComponent(bad)}`,
        {
          method: "POST",
        },
      );
      expect(done.status).toBe(401);
      expect((await done.json()).error).toMatchObject({
        code: "unauthorized",
        message: expect.stringMatching(/take-over link is not valid/),
      });
    }
    // The same token signed for the right task, a day ahead, works: the refusals were the token's, not the form's.
    const valid = signedToken(world, taskId, needsHuman.data.handoff_id, Math.floor(Date.now() / 1000) + 86_400);
    expect((await fetch(`${world.server.url}/takeover/${taskId}?token=${valid}`)).status).toBe(200);
    expect((await fetch(`${world.server.url}/takeover/${taskId}`)).status).toBe(404);
  });

  it("a click sent through the link's live view lands on the real page", async () => {
    const html = await (await fetch(needsHuman.data.live_view_url)).text();
    const wsUrl = /ws:\/\/[^"\\\s]+\/computers\/comp_[0-9a-f]+\/ws\?token=\d+\.[A-Za-z0-9_-]{43}/.exec(html)?.[0];
    expect(wsUrl, "the page carries its live view's WebSocket URL").toBeTruthy();
    const before = world.page.records.filter((r) => r.type === "click").length;
    const ws = await openLiveView(wsUrl!);
    try {
      // The button's centre is at (650, 325) px (agent-fixtures.ts).
      ws.send(JSON.stringify({ type: "pointer", action: "move", x: 650, y: 325 }));
      ws.send(JSON.stringify({ type: "pointer", action: "down", x: 650, y: 325, button: "left" }));
      ws.send(JSON.stringify({ type: "pointer", action: "up", x: 650, y: 325, button: "left" }));
      await waitFor(async () => world.page.records.filter((r) => r.type === "click").length, {
        until: (n) => n > before,
        message: "the person's click on the page",
      });
    } finally {
      ws.close();
    }
    expect(world.page.records.filter((r) => r.type === "click").at(-1)).toMatchObject({ x: 650, y: 325 });
  });

  it("no model call while it waits; pause and a second hand-off are 409s", async () => {
    expect((await agentCall(world, world.key, "POST", `/agent/tasks/${taskId}/pause`)).status).toBe(409);
    const again = await agentCall(world, world.key, "POST", `/agent/tasks/${taskId}/handoff`, { reason: "again" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already waits for a person/);
    expect((await agentCall(world, world.key, "GET", `/agent/tasks/${taskId}`)).body.status).toBe("awaiting_human");
    expect(world.upstream.requests.length).toBe(requestsAtWait);
  });

  it("resume {note}: the next model request carries the note and a new screenshot, and the task finishes", async () => {
    const resumed = await agentCall(world, world.key, "POST", `/agent/tasks/${taskId}/resume`, {
      note: "Logged in with code 424242",
    });
    expect(resumed).toMatchObject({ status: 200, body: { status: "running", task_id: taskId } });
    const event = await stream.until((e) => e.event === "resumed");
    expect(event.data).toMatchObject({ from: "awaiting_human", note: "Logged in with code 424242" });
    expect(event.data.by).toMatch(/^API key /);
    await stream.until((e) => e.event === "completed");
    const next = world.upstream.requests[requestsAtWait]!.body;
    const input = JSON.stringify(next.input);
    expect(input).toContain("Logged in with code 424242");
    // The model's call was answered, and the person's screen came with the note.
    expect(next.input.some((i: { type: string }) => i.type === "function_call_output")).toBe(true);
    const last = next.input.at(-1);
    expect(last.role).toBe("user");
    expect(last.content.some((c: { type: string }) => c.type === "input_image")).toBe(true);
    const done = await waitForTask(world, world.key, taskId, ended);
    expect(done).toMatchObject({ status: "completed", result: "the inbox is open", handoff: null });
    expect(done.handoffs).toEqual([
      expect.objectContaining({
        reason: "Log in with the code",
        requested_by: "the agent",
        note: "Logged in with code 424242",
        resumed_by: expect.stringMatching(/^API key /),
      }),
    ]);
    // The hand-off is over: its link no longer opens.
    expect((await fetch(needsHuman.data.live_view_url)).status).toBe(404);
  });
});

describe("a client hands a running task to a person", () => {
  it("POST /handoff holds it (no model calls), the link's Done gives it back with the note", async () => {
    world.upstream.setScript(idleSteps(200));
    const started = await agentCall(world, world.key, "POST", "/agent/tasks", task({ max_steps: 200 }));
    const id = started.body.task_id;
    const stream = await follow(world, id);
    try {
      await stream.until((e) => e.event === "step");
      const bad = await agentCall(world, world.key, "POST", `/agent/tasks/${id}/handoff`, { reason: 42 });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/reason/);
      const running = await agentCall(world, world.key, "POST", `/agent/tasks/${id}/resume`, {});
      expect(running.status).toBe(409);
      expect(running.body.error.message).toMatch(/only a paused task or one waiting for a person/);

      const handed = await agentCall(world, world.key, "POST", `/agent/tasks/${id}/handoff`, {
        reason: "Solve the captcha",
      });
      expect(handed.status, JSON.stringify(handed.body)).toBe(200);
      expect(handed.body).toMatchObject({ status: "awaiting_human", handoff: { reason: "Solve the captcha" } });
      const needs = await stream.until((e) => e.event === "needs_human");
      expect(needs.data).toMatchObject({
        reason: "Solve the captcha",
        requested_by: expect.stringMatching(/^API key /),
      });
      const atWait = world.upstream.requests.length;
      const read = await agentCall(world, world.key, "GET", `/agent/tasks/${id}`);
      expect(read.body.status).toBe("awaiting_human");

      const token = new URL(handed.body.handoff.live_view_url).searchParams.get("token")!;
      const done = await fetch(
        `${world.server.url}/agent/tasks/${id}/handoff/done?token=${encodeURIComponent(token)}`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ note: "Captcha solved" }),
        },
      );
      expect(done.status).toBe(200);
      expect(world.upstream.requests.length).toBe(atWait);
      const resumed = await stream.until((e) => e.event === "resumed");
      expect(resumed.data).toMatchObject({ by: "the take-over link", note: "Captcha solved" });
      await stream.until((e) => e.event === "step");
      expect(JSON.stringify(world.upstream.requests[atWait]!.body.input)).toContain("Captcha solved");
      // A used link does not give it back twice.
      const twice = await fetch(
        `${world.server.url}/agent/tasks/${id}/handoff/done?token=${encodeURIComponent(token)}`,
        {
          method: "POST",
        },
      );
      expect(twice.status).toBe(401);
    } finally {
      await agentCall(world, world.key, "POST", `/agent/tasks/${id}/stop`);
      await stream.cancel();
    }
    const stopped = await waitForTask(world, world.key, id, ended);
    expect(stopped.status).toBe("stopped");
    expect(stopped.handoffs[0]).toMatchObject({
      requested_by: expect.stringMatching(/^API key /),
      resumed_by: "the take-over link",
    });
  });

  it("a finished task answers 409 to handoff and resume", async () => {
    world.upstream.setScript([{ done: { result: "ok" } }]);
    const started = await agentCall(world, world.key, "POST", "/agent/tasks", task());
    await waitForTask(world, world.key, started.body.task_id, ended);
    const handoff = await agentCall(world, world.key, "POST", `/agent/tasks/${started.body.task_id}/handoff`, {
      reason: "too late",
    });
    expect(handoff.status).toBe(409);
    expect(handoff.body.error.message).toMatch(/is completed/);
    const resume = await agentCall(world, world.key, "POST", `/agent/tasks/${started.body.task_id}/resume`, {});
    expect(resume.status).toBe(409);
    expect(
      (await agentCall(world, world.key, "POST", "/agent/tasks/task_000000000000000000000000/handoff", { reason: "x" }))
        .status,
    ).toBe(404);
  });
});

describe("MCP's run_agent_task", () => {
  it("reports awaiting_human with the link as progress, and answers once control is given back", async () => {
    world.upstream.setScript([
      { call: { name: "request_human", arguments: { reason: "Approve the payment" } } },
      { done: { result: "paid" } },
    ]);
    const client = new Client({ name: "handoff-test", version: "1.0.0" });
    const headers = { authorization: `Bearer ${world.key}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${world.server.url}/mcp`), { requestInit: { headers } }),
    );
    let resumed: Promise<{ status: number }> | undefined;
    const args = {
      instruction: "Pay the bill",
      kind: "browser",
      model: SCRIPTED_MODEL,
      start_url: `${world.page.url}/`,
    };
    const result = await client.callTool({ name: "run_agent_task", arguments: { ...args, max_steps: 4 } }, undefined, {
      timeout: 60_000,
      onprogress: (p) => {
        const link = /^awaiting_human: Approve the payment; a person takes over at (\S+)$/.exec(p.message ?? "")?.[1];
        const id = link && /\/takeover\/(task_[0-9a-f]+)\?token=/.exec(link)?.[1];
        if (id) resumed = agentCall(world, world.key, "POST", `/agent/tasks/${id}/resume`, { note: "approved" });
      },
    });
    await client.close();
    expect((await resumed)?.status).toBe(200);
    const answer = JSON.parse((result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join(""));
    expect(answer).toMatchObject({ status: "completed", result: "paid" });
    expect(answer.handoffs).toEqual([expect.objectContaining({ reason: "Approve the payment", note: "approved" })]);
  }, 90_000);
});
