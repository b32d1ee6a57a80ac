// @needs server light chromium
// What a restart leaves of a running task (docs/agent-tasks.md "Restarts"):
// the loop lives in the server process, so it is not resumed. Killed mid-task
// (SIGKILL, no chance to clean up) the task is `failed` / `server_restart`
// after the next start; stopped cleanly (SIGTERM) it is `failed` /
// `server_shutdown`. Either way no session is left live.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentCall, idleSteps, SCRIPTED_MODEL, startAgentWorld, waitForTask, type AgentWorld } from "./agent-fixtures";

let world: AgentWorld;

beforeAll(async () => {
  world = await startAgentWorld();
}, 120_000);

afterAll(async () => {
  await world?.close();
});

async function startLongTask() {
  world.upstream.setScript(idleSteps(400));
  const res = await agentCall(world, world.key, "POST", "/agent/tasks", {
    instruction: "Keep looking",
    kind: "browser",
    model: SCRIPTED_MODEL,
    start_url: `${world.page.url}/`,
    max_steps: 200,
  });
  expect(res.status).toBe(201);
  await waitForTask(world, world.key, res.body.task_id, (t) => t.step_count >= 1);
  return res.body as { task_id: string; computer_id: string };
}

describe("a server restart in the middle of a task", () => {
  it("killed: the task is failed with server_restart and its session is not live", async () => {
    const task = await startLongTask();
    await world.server.kill("SIGKILL");
    world.server = await world.server.restart();
    const after = (await agentCall(world, world.key, "GET", `/agent/tasks/${task.task_id}`)).body;
    expect(after).toMatchObject({ status: "failed", exit_code: 1, end_reason: "server_restart" });
    expect(after.error.message).toMatch(/restarted/);
    expect((await agentCall(world, world.key, "GET", `/computers/${task.computer_id}`)).body.status).toBe("terminated");
    expect((await agentCall(world, world.key, "GET", "/computers?type=live")).body).toEqual([]);
  }, 120_000);

  it("stopped cleanly: the task is failed with server_shutdown and its session ended", async () => {
    const task = await startLongTask();
    await world.server.stop();
    world.server = await world.server.restart();
    const after = (await agentCall(world, world.key, "GET", `/agent/tasks/${task.task_id}`)).body;
    expect(after).toMatchObject({ status: "failed", end_reason: "server_shutdown" });
    expect((await agentCall(world, world.key, "GET", `/computers/${task.computer_id}`)).body.status).toBe("terminated");
    expect((await agentCall(world, world.key, "GET", "/computers?type=live")).body).toEqual([]);
  }, 120_000);
});
