// @needs server light chromium
// A task on the placeholder model of a fresh install (the shared test server's
// default models): the loop runs its max_steps without an error. The model
// cannot see, so what it does is arbitrary; what matters is that each step's
// model call and action go through, billed, and the task ends cleanly.
import { describe, expect, it, inject } from "vitest";
import { waitForTask } from "./agent-fixtures";
import { call } from "./client";

describe("agent task on the placeholder model", () => {
  it("runs its max_steps without an error and ends its session", async () => {
    const world = { server: { url: inject("baseUrl") } } as Parameters<typeof waitForTask>[0];
    const models = (await call("GET", "/v1/models")).body.data as Array<{ id: string }>;
    const model = models.find((m) => m.id.endsWith(".cua-fast"))!.id;
    const res = await call("POST", "/agent/tasks", {
      body: {
        instruction: "Look at the page and do nothing harmful",
        kind: "browser",
        model,
        max_steps: 3,
        temperature: 0,
      },
    });
    expect(res.status).toBe(201);
    const task = await waitForTask(
      world,
      inject("apiKey"),
      res.body.task_id,
      (t) => ["completed", "failed", "stopped"].includes(t.status),
      180_000,
    );
    expect(task.error).toBeNull();
    expect(task.status).toBe("completed");
    // Every step is a model call that went through; it ends at max_steps unless the model said done first.
    expect(task.step_count).toBeGreaterThanOrEqual(1);
    if (task.end_reason === "max_steps") expect(task.step_count).toBe(3);
    expect(task.usage.input_tokens).toBeGreaterThan(0);
    for (const step of task.steps) expect(step.error).toBeNull();
    expect((await call("GET", `/computers/${task.computer_id}`)).body.status).toBe("terminated");
  }, 200_000);
});
