// The request bodies of /agent/tasks, field for field as the public Lightcone
// SDKs send them (TaskStartParams, TaskInjectMessageParams); docs/agent-tasks.md
// says which fields act and which are accepted as client metadata only.
// A start ignores fields it does not know (newer SDKs send fields an older
// server has not learned yet, and a task must still start); the fields it
// knows are checked strictly, a bad one a 400 naming it.
import { z } from "zod";
import { AppError } from "@/lib/api/errors";
import { parseWith } from "@/lib/api/request";
import { MAX_REASON_LENGTH } from "@/lib/agent/tools/request-human";
import { CREDENTIAL_NAME } from "@/lib/credentials/credential-input";
import { getEnv } from "@/lib/env";
import { profileRefSchema, type ProfileRefBody } from "@/lib/computers/session-profiles";
import { DISPLAY_BOUNDS } from "@/lib/computers/session-schemas";

const contextTurn = z.strictObject({
  role: z.enum(["user", "assistant"], { error: "context[].role must be user or assistant" }),
  content: z
    .string({ error: "context[].content must be a string" })
    .max(20_000, "context[].content must be at most 20000 characters"),
});

/** A task's screen size: the bounds a session's display takes (DISPLAY_BOUNDS), so a start never outgrows its session. */
const dimension = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

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
    viewport_width: dimension("viewport_width", DISPLAY_BOUNDS.minWidth, DISPLAY_BOUNDS.maxWidth).optional(),
    viewport_height: dimension("viewport_height", DISPLAY_BOUNDS.minHeight, DISPLAY_BOUNDS.maxHeight).optional(),
    environment_id: z.string({ error: "environment_id must be a string" }).min(1).optional(),
    computer_id: z.string({ error: "computer_id must be a string" }).min(1).optional(),
    on_missing_computer: z
      .enum(["fail", "restore", "create_new"], { error: "on_missing_computer must be fail, restore or create_new" })
      .optional(),
    persistent: z.boolean({ error: "persistent must be a boolean" }).optional(),
    profile: profileRefSchema.optional(),
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
    credentials: z
      .array(
        z
          .string({ error: "credentials[] must be strings" })
          .regex(CREDENTIAL_NAME, "credentials[] must be credential names"),
        {
          error: "credentials must be an array of credential names",
        },
      )
      .max(16, "credentials names at most 16")
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

/**
 * A task start as a typed command (`startTask`): what the caller chose, in the domain's words, the wire's
 * aliases settled (`save_session` is `persistent`, `keep_alive` is `terminateOnCompletion: false`). A field
 * left out takes the task's default (`startTask`'s plan).
 */
export interface TaskStart {
  instruction: string;
  kind?: "browser" | "desktop";
  model?: string;
  maxSteps?: number;
  maxDurationSeconds?: number;
  temperature?: number;
  screenshotMode?: "url" | "base64";
  viewport?: { width?: number; height?: number };
  persistent?: boolean;
  record?: boolean;
  environmentId?: string;
  profile?: ProfileRefBody;
  /** A live session of the organization to run on; `onMissingComputer` says what happens when it is not one. */
  computerId?: string;
  onMissingComputer?: "fail" | "restore" | "create_new";
  terminateOnCompletion?: boolean;
  startUrl?: string;
  systemPrompt?: string;
  context?: { role: "user" | "assistant"; content: string }[];
  metadata?: Record<string, string>;
  idempotencyKey?: string;
  credentials?: string[];
}

/** The typed start a checked request body stands for (the SDK's client-metadata fields have no effect). */
export function toTaskStart(body: TaskStartBody): TaskStart {
  return {
    instruction: body.instruction,
    kind: body.kind,
    model: body.model,
    maxSteps: body.max_steps,
    maxDurationSeconds: body.max_duration_seconds,
    temperature: body.temperature,
    screenshotMode: body.screenshot_mode,
    viewport: { width: body.viewport_width, height: body.viewport_height },
    persistent: body.persistent ?? body.save_session,
    record: body.record,
    environmentId: body.environment_id,
    profile: body.profile,
    computerId: body.computer_id,
    onMissingComputer: body.on_missing_computer,
    terminateOnCompletion: body.keep_alive ? false : body.terminate_on_completion,
    startUrl: body.start_url,
    systemPrompt: body.system_prompt,
    context: body.context,
    metadata: body.metadata,
    idempotencyKey: body.idempotency_key,
    credentials: body.credentials,
  };
}

/** POST /agent/tasks's body, checked (a 400 naming the field) and made a typed start. */
export function parseTaskStart(body: unknown): TaskStart {
  return toTaskStart(parseWith(taskStartSchema(), body));
}

export const injectMessageSchema = z.strictObject({
  message: z
    .string({ error: "message is required and must be a string" })
    .trim()
    .min(1, "message must not be empty")
    .max(20_000, "message must be at most 20000 characters"),
});

/** POST /agent/tasks/{id}/handoff {reason}. */
export const handoffSchema = z.object({
  reason: z
    .string({ error: "reason is required and must be a string" })
    .trim()
    .min(1, "reason must not be empty")
    .max(MAX_REASON_LENGTH, `reason must be at most ${MAX_REASON_LENGTH} characters`),
});

/** POST /agent/tasks/{id}/resume {note?} and the take-over page's Done. */
export const resumeSchema = z.object({
  note: z
    .string({ error: "note must be a string" })
    .trim()
    .max(20_000, "note must be at most 20000 characters")
    .optional(),
});

/** A hand-off's body ({reason}); a JSON null counts as `{}`, so the 400 names `reason`. */
export const parseHandoff = (body: unknown) => parseWith(handoffSchema, body ?? {});

/** A resume's or a take-over's Done's body ({note?}). */
export const parseResume = (body: unknown) => parseWith(resumeSchema, body ?? {});

/** A control of a live task as a typed command (`controlTask`): the dashboard's one route for them all. */
export type TaskControl =
  | { action: "pause" }
  | { action: "stop" }
  | { action: "resume"; note?: string }
  | { action: "messages"; message: string }
  | { action: "handoff"; reason: string };

/** A control named by the dashboard's route and its body; an unknown name is a 404 before the body is read. */
export function parseTaskControl(action: string, body: unknown): TaskControl {
  switch (action) {
    case "pause":
    case "stop":
      return { action };
    case "resume":
      return { action, ...parseResume(body) };
    case "messages":
      return { action, ...parseWith(injectMessageSchema, body) };
    case "handoff":
      return { action, ...parseHandoff(body) };
    default:
      throw new AppError("not_found", `No such task control: ${action} (use pause, resume, stop, messages or handoff)`);
  }
}

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
  /** A named browser profile the task's new session starts from (docs/profiles.md). */
  profile: ProfileRefBody | null;
  computerId: string | null;
  onMissingComputer: "fail" | "restore" | "create_new";
  terminateOnCompletion: boolean;
  startUrl: string | null;
  systemPrompt: string | null;
  context: { role: "user" | "assistant"; content: string }[];
  metadata: Record<string, string>;
  idempotencyKey: string | null;
  /** Vault credentials the loop's fill_credentials tool may fill (names; docs/credentials.md). */
  credentials: string[];
}
