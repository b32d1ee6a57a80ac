// The hand-off operations of the OpenAPI document (docs/agent-tasks.md "Hand-off
// to a person"): hold a task for a person, and give control back. No example
// bodies: they need a live task, which the document's own checks do not start.
import { z } from "zod";
import { jsonSchema, ok, operation, pathParam, requestBody, type JsonSchema } from "@/lib/routes/openapi/build";

const id = pathParam("id", "Agent task id (task_<hex>)", "task_0123456789abcdef01234567");

export const agentTasksTag = {
  name: "Agent tasks",
  description: "Start, follow, steer and stop agent tasks; hand one to a person and give it back",
  "x-surface": "computers",
};

const handoff = z.object({
  id: z.string().describe("handoff_<hex>"),
  reason: z.string().describe("What the person should do"),
  requested_by: z.string().describe("Who asked: the agent, an API key, a member"),
  requested_at: z.string().describe("ISO 8601 time (UTC)"),
  resumed_at: z.string().nullable(),
  resumed_by: z.string().nullable(),
  note: z.string().nullable(),
  live_view_url: z.string().describe("The take-over page: live view with control and Done, no login; expires"),
  dashboard_url: z.string().describe("The task's page in the dashboard"),
  expires_at: z.string().describe("When live_view_url stops working (read the task again for a fresh one)"),
});

const schemas = {
  handoffBody: jsonSchema(
    z.object({ reason: z.string().min(1).max(2000).describe("What the person should do (shown to them)") }),
  ),
  resumeBody: jsonSchema(
    z.object({ note: z.string().max(20_000).optional().describe("What the person did; the model reads it") }),
  ),
  handedOff: jsonSchema(z.object({ status: z.literal("awaiting_human"), task_id: z.string(), handoff }), "output"),
  resumed: jsonSchema(z.object({ status: z.literal("running"), task_id: z.string() }), "output"),
} satisfies Record<string, JsonSchema>;

export function agentHandoffPaths(): Record<string, Record<string, unknown>> {
  return {
    "/agent/tasks/{id}/handoff": {
      post: operation(
        "computers",
        "handoffTask",
        {
          tag: "Agent tasks",
          summary: "Hand a running or paused task to a person",
          description:
            "The task becomes awaiting_human; its loop holds after the step in flight (no model calls, no " +
            "steps) and its stream sends needs_human {reason, live_view_url}. 409 when the task has ended or " +
            "already waits.",
          parameters: [id],
          requestBody: requestBody(schemas.handoffBody, true),
          responses: { "200": ok("The task waits for a person", schemas.handedOff) },
        },
        ["400", "401", "404", "409"],
      ),
    },
    "/agent/tasks/{id}/handoff/done": {
      post: operation(
        "computers",
        "finishTakeover",
        {
          tag: "Agent tasks",
          summary: "The take-over page's Done: give the task back, with the link's token",
          description:
            "Authenticated by the `token` of the hand-off's live_view_url, not an API key: it grants this one " +
            "hand-off until it expires or ends. 409 when the hand-off already ended.",
          parameters: [id, { name: "token", in: "query", required: true, schema: { type: "string" } }],
          security: [{ capabilityToken: [] }],
          requestBody: requestBody(schemas.resumeBody, false),
          responses: { "200": ok("The task runs again", schemas.resumed) },
        },
        ["400", "401", "404", "409"],
      ),
    },
    "/agent/tasks/{id}/resume": {
      post: operation(
        "computers",
        "resumeTask",
        {
          tag: "Agent tasks",
          summary: "Give control back to the agent (from a pause or a hand-off)",
          description:
            "From a hand-off the note enters the conversation as a user message with a new screenshot; from a " +
            "pause it joins the next model call. 409 when the task is neither paused nor waiting.",
          parameters: [id],
          requestBody: requestBody(schemas.resumeBody, false),
          responses: { "200": ok("The task runs again", schemas.resumed) },
        },
        ["400", "401", "404", "409"],
      ),
    },
  };
}
