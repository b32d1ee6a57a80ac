// @needs server chromium
// An agent task's model calls are admitted as /v1 admits a call (docs/agent-tasks.md "How a task runs"): they
// count against the starting key's rate limit (MODEL_KEY_RATE_LIMIT_RPM=2 on a server of its own), and a
// task whose key is over its limit ends failed with the key's refusal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentCall, ended, SCRIPTED_MODEL, startAgentWorld, waitForTask, type AgentWorld } from "./agent-fixtures";

let world: AgentWorld;

beforeAll(async () => {
  world = await startAgentWorld({ MODEL_KEY_RATE_LIMIT_RPM: "2" });
}, 240_000);
afterAll(async () => {
  await world?.close();
});

/** One /v1 inference request with the key: admitted (or refused) before its model is looked up. */
const v1Call = (key: string) =>
  fetch(`${world.server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "no-such-model", messages: [{ role: "user", content: "hi" }] }),
  });

const runTask = async (instruction: string) => {
  const start = await agentCall(world, world.key, "POST", "/agent/tasks", {
    instruction,
    model: SCRIPTED_MODEL,
    kind: "browser",
    max_steps: 5,
  });
  expect(start.status, JSON.stringify(start.body)).toBe(201);
  return waitForTask(world, world.key, start.body.task_id, ended, 60_000);
};

describe("an agent task's model calls and its key's rate limit", () => {
  it("counts the task's model call against the key, " +
    "and a task over the key's limit fails with its refusal", async () => {
    world.upstream.setScript([{ done: { result: "looked" } }]);
    const task = await runTask("look at the page");
    expect(task.status, JSON.stringify(task.error)).toBe("completed");

    // The task spent one of the key's two requests this minute: one /v1 call is left, the next is refused.
    expect((await v1Call(world.key)).status).not.toBe(429);
    const refused = await v1Call(world.key);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toMatch(/this API key: 2 requests per minute/);

    // Another key of another organization is not held back.
    expect((await v1Call(world.keyB)).status).not.toBe(429);

    world.upstream.setScript([{ done: { result: "never asked" } }]);
    const over = await runTask("look again");
    expect(over.status).toBe("failed");
    expect(over.error.message).toMatch(/this API key: 2 requests per minute/);
  }, 120_000);
});
