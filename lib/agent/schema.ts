// The request bodies of /agent/tasks, field for field as the public Lightcone
// SDKs send them (TaskStartParams, TaskInjectMessageParams); docs/agent-tasks.md
// says which fields act and which are accepted as client metadata only.
// A start ignores fields it does not know (newer SDKs send fields an older
// server has not learned yet, and a task must still start); the fields it
// knows are checked strictly, a bad one a 400 naming it.
import { z } from "zod";
import { getEnv } from "@/lib/env";

const contextTurn = z.strictObject({
  role: z.enum(["user", "assistant"], { error: "context[].role must be user or assistant" }),
  content: z
    .string({ error: "context[].content must be a string" })
    .max(20_000, "context[].content must be at most 20000 characters"),
});

const dimension = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(200, `${name} must be at least 200`)
    .max(3840, `${name} must be at most 3840`);

/** POST /agent/tasks and /agent/tasks/stream (the SDK's TaskStartParams and TaskStartStreamParams are the same). */
export function taskStartSchema() {
  const maxSteps = getEnv().AGENT_MAX_STEPS_LIMIT;
  return z.object({
    instruction: z
      .string({ error: "instruction is required and must be a string" })
      .trim()
      .min(1, "instruction must not be empty")
      .max(20_000, "instruction must be at most 20000 characters"),
    kind: z.enum(["browser", "desktop"], { error: "kind must be browser or desktop" }).optional(),
    model: z.string({ error: "model must be a string" }).min(1, "model must not be empty").optional(),
    max_steps: z
      .number({ error: "max_steps must be a number" })
      .int("max_steps must be an integer")
      .min(1, "max_steps must be at least 1")
      .max(maxSteps, `max_steps must be at most ${maxSteps} on this server (AGENT_MAX_STEPS_LIMIT)`)
      .optional(),
    max_duration_seconds: z
      .number({ error: "max_duration_seconds must be a number" })
      .int("max_duration_seconds must be an integer")
      .min(1, "max_duration_seconds must be at least 1")
      .max(86_400, "max_duration_seconds must be at most 86400")
      .optional(),
    temperature: z
      .number({ error: "temperature must be a number" })
      .min(0, "temperature must be between 0 and 2")
      .max(2, "temperature must be between 0 and 2")
      .optional(),
    screenshot_mode: z.enum(["url", "base64"], { error: "screenshot_mode must be url or base64" }).optional(),
    viewport_width: dimension("viewport_width").optional(),
    viewport_height: dimension("viewport_height").optional(),
    environment_id: z.string({ error: "environment_id must be a string" }).min(1).optional(),
    computer_id: z.string({ error: "computer_id must be a string" }).min(1).optional(),
    on_missing_computer: z
      .enum(["fail", "restore", "create_new"], { error: "on_missing_computer must be fail, restore or create_new" })
      .optional(),
    persistent: z.boolean({ error: "persistent must be a boolean" }).optional(),
    record: z.boolean({ error: "record must be a boolean" }).optional(),
    save_session: z.boolean({ error: "save_session must be a boolean" }).optional(),
    keep_alive: z.boolean({ error: "keep_alive must be a boolean" }).optional(),
    terminate_on_completion: z.boolean({ error: "terminate_on_completion must be a boolean" }).optional(),
    start_url: z.url({ error: "start_url must be an absolute http(s) URL", protocol: /^https?$/ }).optional(),
    system_prompt: z
      .string({ error: "system_prompt must be a string" })
      .max(20_000, "system_prompt must be at most 20000 characters")
      .optional(),
    context: z
      .array(contextTurn, { error: "context must be an array of {role, content}" })
      .max(50, "context holds at most 50 turns")
      .optional(),
    metadata: z
      .record(z.string(), z.string({ error: "metadata values must be strings" }), {
        error: "metadata must be an object of strings",
      })
      .optional(),
    idempotency_key: z
      .string({ error: "idempotency_key must be a string" })
      .min(1)
      .max(255, "idempotency_key must be at most 255 characters")
      .optional(),
    // Client metadata the SDK documents as ignored by agent servers, or as history-UI hints.
    agent_type: z.string({ error: "agent_type must be a string" }).optional(),
    agent_icon: z.string({ error: "agent_icon must be a string" }).optional(),
    thread_id: z.string({ error: "thread_id must be a string" }).optional(),
    harness_version: z.enum(["v1", "v2"], { error: "harness_version must be v1 or v2" }).optional(),
    stream_mode: z.enum(["verbose", "concise"], { error: "stream_mode must be verbose or concise" }).optional(),
    stream_deltas: z.boolean({ error: "stream_deltas must be a boolean" }).optional(),
  });
}

export type TaskStartBody = z.infer<ReturnType<typeof taskStartSchema>>;

export const injectMessageSchema = z.strictObject({
  message: z
    .string({ error: "message is required and must be a string" })
    .trim()
    .min(1, "message must not be empty")
    .max(20_000, "message must be at most 20000 characters"),
});

/** What a task start has settled, once its defaults are applied (service.ts `startTask`). */
export interface TaskPlan {
  instruction: string;
  kind: "browser" | "desktop";
  model: string;
  maxSteps: number;
  maxDurationSeconds: number | null;
  temperature: number | null;
  screenshotMode: "url" | "base64";
  viewport: { width: number; height: number };
  persistent: boolean;
  /** Record the task's session as a replay: true asked, false opted out, null the default (recorded if it can be). */
  record: boolean | null;
  environmentId: string | null;
  computerId: string | null;
  onMissingComputer: "fail" | "restore" | "create_new";
  terminateOnCompletion: boolean;
  startUrl: string | null;
  systemPrompt: string | null;
  context: { role: "user" | "assistant"; content: string }[];
  metadata: Record<string, string>;
  idempotencyKey: string | null;
}
