// @needs server light postgres chromium
// AGENT_ORG_MAX_RUNNING_TASKS under concurrency (docs/limits.md "Counted limits"): ten starts
// sent at once must leave exactly the limit running, the rest refused with 429 and no session
// of theirs left live. Also run on PostgreSQL (POSTGRES_FILES), where the count and the insert
// are held together by an advisory lock rather than SQLite's one-at-a-time transactions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentCall, idleSteps, SCRIPTED_MODEL, startAgentWorld, type AgentWorld } from "./agent-fixtures";

const LIMIT = 4;
const STARTS = 10;
let world: AgentWorld;

beforeAll(async () => {
  world = await startAgentWorld({ AGENT_ORG_MAX_RUNNING_TASKS: String(LIMIT) });
  // Long enough that no task ends while the burst is counted.
  world.upstream.setScript(idleSteps(1_000));
}, 240_000);
afterAll(async () => {
  await world?.close();
});

describe("the running-task limit", () => {
  it(`lets exactly ${LIMIT} of ${STARTS} simultaneous starts run and refuses the rest with 429`, async () => {
    const answers = await Promise.all(
      Array.from({ length: STARTS }, (_, i) =>
        agentCall(world, world.key, "POST", "/agent/tasks", {
          instruction: `look ${i}`,
          model: SCRIPTED_MODEL,
          kind: "browser",
          max_steps: 200,
        }),
      ),
    );
    const started = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(
      started.length,
      JSON.stringify(answers.map((a) => [a.status, a.body?.error?.message ?? a.body?.status])),
    ).toBe(LIMIT);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body.error).toMatchObject({ code: "rate_limited" });
      expect(answer.body.error.message).toContain("AGENT_ORG_MAX_RUNNING_TASKS");
    }
    const list = await agentCall(world, world.key, "GET", "/agent/tasks?limit=100");
    const running = (list.body.data as Array<{ status: string }>).filter((t) =>
      ["queued", "running", "paused"].includes(t.status),
    );
    expect(running).toHaveLength(LIMIT);
    // A refused start leaves none of the sessions it opened: only the running tasks' are live.
    const live = await agentCall(world, world.key, "GET", "/computers?type=live");
    expect(live.body).toHaveLength(LIMIT);
    for (const task of started)
      expect((await agentCall(world, world.key, "POST", `/agent/tasks/${task.body.task_id}/stop`)).status).toBe(200);
  }, 180_000);
});
