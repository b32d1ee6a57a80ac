// The agent task operations of the OpenAPI document (docs/agent-tasks.md): start one, list them, read one,
// follow its events, pause, message and stop it; the hand-off pair is in agent-handoff.ts. The start's body
// is the schema POST /agent/tasks parses (`taskStartSchema`), so the document cannot advertise a field or a
// limit the service refuses. No example bodies: they would start real tasks in the document's own checks.
import { z } from "zod";
import { injectMessageSchema, taskStartSchema } from "@/lib/agent/schema";
import { jsonSchema, ok, operation, pathParam, requestBody, type JsonSchema } from "@/lib/routes/openapi/build";

const id = pathParam("id", "Agent task id (task_<hex>)", "task_0123456789abcdef01234567");
const tag = "Agent tasks";
const ERRORS = ["400", "401", "404", "409"];

const usage = z.object({ input_tokens: z.number(), output_tokens: z.number(), total_tokens: z.number() });

const summary = z.object({
  task_id: z.string(),
  object: z.literal("agent.task"),
  status: z
    .enum(["queued", "running", "paused", "awaiting_human", "completed", "failed", "stopped"])
    .describe("completed, failed and stopped are final"),
  exit_code: z.number().optional().describe("0 completed, 1 failed, 2 stopped (final statuses only)"),
  instruction: z.string(),
  kind: z.enum(["browser", "desktop"]),
  model: z.string(),
  computer_id: z.string().nullable(),
  replay_id: z.string().nullable().describe("Its recording (GET /computers/{id}/replays), null when not recorded"),
  started_by: z.object({ type: z.enum(["api_key", "dashboard"]), api_key_id: z.string().optional() }),
  max_steps: z.number(),
  step_count: z.number(),
  usage,
  cost_usd: z.number(),
  result: z.string().nullable().describe("The model's final answer"),
  end_reason: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
});

const step = z.object({
  index: z.number(),
  action: z.record(z.string(), z.unknown()).nullable().describe("The model's action (0–1000); null for an answer"),
  screen_action: z.record(z.string(), z.unknown()).nullable().describe("The same action in screen pixels"),
  model_text: z.string().nullable(),
  screenshot_url: z.string().nullable(),
  injected_messages: z.array(z.string()),
  usage,
  cost_usd: z.number(),
  timings_ms: z.object({ model: z.number(), action: z.number(), total: z.number() }),
  error: z.string().nullable(),
  created_at: z.string(),
});

const sse = (description: string) => ok(description, { type: "string" }, "text/event-stream");

const schemas = {
  start: jsonSchema(taskStartSchema()),
  message: jsonSchema(injectMessageSchema),
  started: jsonSchema(
    z.object({
      task_id: z.string(),
      status: z.string(),
      computer_id: z.string().nullable(),
      idempotency_key: z.string().optional(),
      reused: z.boolean().describe("true when idempotency_key named a task started before"),
    }),
    "output",
  ),
  list: jsonSchema(z.object({ object: z.literal("list"), data: z.array(summary) }), "output"),
  task: jsonSchema(
    summary.extend({
      screenshot_mode: z.string(),
      viewport: z.object({ width: z.number(), height: z.number() }),
      temperature: z.number().nullable(),
      persistent: z.boolean(),
      metadata: z.record(z.string(), z.string()),
      steps: z.array(step),
    }),
    "output",
  ),
  control: jsonSchema(z.object({ status: z.string(), task_id: z.string() }), "output"),
  queued: jsonSchema(
    z.object({ status: z.literal("queued"), task_id: z.string(), queued_messages: z.number() }),
    "output",
  ),
} satisfies Record<string, JsonSchema>;

export function agentTaskPaths(): Record<string, Record<string, unknown>> {
  const start = requestBody(schemas.start, true);
  return {
    "/agent/tasks": {
      post: operation(
        "computers",
        "startTask",
        {
          tag,
          summary: "Start an agent task",
          description:
            "The loop looks at the screen, asks the model for an action, acts, and repeats until the model answers " +
            "or max_steps ran out; on a new session, or on computer_id's.",
          requestBody: start,
          responses: { "201": ok("Started (or the earlier task of the same idempotency_key)", schemas.started) },
        },
        ["400", "401", "404", "409", "429"],
      ),
      get: operation(
        "computers",
        "listTasks",
        { tag, summary: "The organization's tasks, newest first", responses: { "200": ok("Tasks", schemas.list) } },
        ["401"],
      ),
    },
    "/agent/tasks/stream": {
      post: operation(
        "computers",
        "startTaskStream",
        {
          tag,
          summary: "Start an agent task and follow it as Server-Sent Events",
          requestBody: start,
          responses: { "200": sse("started, step, needs_human, … then the final event") },
        },
        ["400", "401", "404", "409", "429"],
      ),
    },
    "/agent/tasks/{id}": {
      get: operation(
        "computers",
        "getTask",
        {
          tag,
          summary: "A task: status, steps, usage and result",
          parameters: [id],
          responses: { "200": ok("The task", schemas.task) },
        },
        ["401", "404"],
      ),
    },
    "/agent/tasks/{id}/stream": {
      get: operation(
        "computers",
        "followTask",
        {
          tag,
          summary: "Follow a task's events (resumes from Last-Event-ID or ?from=)",
          parameters: [id],
          responses: { "200": sse("The task's events, each with its sequence number as the SSE id") },
        },
        ["400", "401", "404"],
      ),
    },
    "/agent/tasks/{id}/pause": {
      post: operation(
        "computers",
        "pauseTask",
        {
          tag,
          summary: "Pause a running task after the step in flight",
          parameters: [id],
          responses: { "200": ok("Paused", schemas.control) },
        },
        ERRORS,
      ),
    },
    "/agent/tasks/{id}/messages": {
      post: operation(
        "computers",
        "injectMessage",
        {
          tag,
          summary: "Send the model a message; it joins the next model call",
          parameters: [id],
          requestBody: requestBody(schemas.message, true),
          responses: { "200": ok("Queued", schemas.queued) },
        },
        ERRORS,
      ),
    },
    "/agent/tasks/{id}/stop": {
      post: operation(
        "computers",
        "stopTask",
        {
          tag,
          summary: "Stop a task; answers once it has ended",
          parameters: [id],
          responses: { "200": ok("Stopped", schemas.control) },
        },
        ERRORS,
      ),
    },
  };
}
