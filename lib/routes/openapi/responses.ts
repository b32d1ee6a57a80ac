// Response shapes for the OpenAPI document. The routes build their answers in
// code (toSession, success(), the /v1 wire objects) rather than through zod, so
// these schemas are the one written description of what they send; requests
// are documented from the schemas the routes really validate with (see
// `computersPaths`, `modelPaths`). Loose objects: the answers may carry more.
import { z } from "zod";

const isoTime = z.string().describe("ISO 8601 time (UTC)");

// ---- error envelopes (errorBody in the renderer, one per surface) ----
export const apiErrorEnvelope = z
  .object({
    error: z.object({
      code: z
        .string()
        .describe("One of the closed list of AppError codes: invalid_request, not_found, conflict, rate_limited, …"),
      message: z.string().describe("What went wrong, naming the field or the resource"),
      param: z.string().optional().describe("The request field the error is about (`display.width`)"),
    }),
  })
  .describe("Error envelope of /computers");

export const openaiErrorEnvelope = z
  .object({
    error: z.object({
      message: z.string(),
      type: z
        .string()
        .describe(
          "invalid_request_error, authentication_error, rate_limit_error, not_found_error, insufficient_quota, " +
            "server_error",
        ),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  })
  .describe("Error envelope of /v1 (OpenAI's)");

// ---- /computers ----
export const sessionListItem = z.object({
  id: z.string().describe("comp_<hex>"),
  kind: z.enum(["browser", "desktop"]),
  status: z.enum(["ready", "running", "terminated"]),
  created_at: isoTime,
});

export const sessionObject = z.looseObject({
  ...sessionListItem.shape,
  expires_at: isoTime,
  idle_expires_at: isoTime,
  last_activity_at: isoTime,
  max_lifetime_seconds: z.number().int(),
  inactivity_timeout_seconds: z.number().int(),
  auto_kill: z.boolean(),
  idle_timeout_enabled: z.boolean(),
  persistent: z.boolean(),
  environment_id: z.string().nullable(),
  use_advanced_proxy: z.boolean(),
  stealth: z.boolean(),
  display: z.object({ width: z.number().int(), height: z.number().int(), scale: z.number() }),
  context_id: z.string().nullable(),
  termination_reason: z
    .string()
    .nullable()
    .describe("deleted, max_lifetime, inactivity, server_shutdown, crashed, provision_failed"),
  terminated_at: isoTime.nullable(),
  endpoints: z
    .record(z.string(), z.string())
    .describe("URLs that work for this session: cdp, screencast, ws, vnc, live_view"),
});

export const pageContext = z.looseObject({
  url: z.string().optional(),
  title: z.string().optional(),
  tab_id: z.string().optional(),
  is_main_tab: z.boolean().optional(),
  viewport_width: z.number().optional(),
  viewport_height: z.number().optional(),
  page_width: z.number().optional(),
  page_height: z.number().optional(),
  scroll_x: z.number().optional(),
  scroll_y: z.number().optional(),
  device_scale_factor: z.number().optional(),
});

export const actionResult = z
  .looseObject({
    status: z.enum(["success", "error"]),
    error_message: z.string().optional(),
    request_id: z.string(),
    executed_tab_id: z.string().optional(),
    timestamp: isoTime,
    result: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("screenshot_url or screenshot, html_content, tabs, …"),
    page_context: pageContext.optional(),
  })
  .describe("ActionResult: a failed action is a 200 with status 'error'");

export const batchResult = z.looseObject({
  status: z.enum(["success", "error"]),
  error_message: z.string().optional(),
  request_id: z.string(),
  timestamp: isoTime,
  results: z.array(actionResult),
});

export const tab = z.object({ tab_id: z.string(), url: z.string(), is_main: z.boolean() });
export const tabList = z.looseObject({ status: z.literal("success"), result: z.object({ tabs: z.array(tab) }) });
export const tabCreated = z.looseObject({
  status: z.literal("success"),
  result: z.looseObject({ created_tab_id: z.string() }),
});
export const tabSwitched = z.looseObject({ status: z.literal("success"), active_tab: z.string() });
export const tabClosed = z.looseObject({ status: z.literal("success"), closed_tab: z.string() });

export const execResult = z.looseObject({ stdout: z.string(), stderr: z.string(), exit_code: z.number().int() });
export const execLine = z
  .object({
    type: z.enum(["stdout", "stderr", "exit", "error"]),
    data: z.string().optional(),
    code: z.union([z.number(), z.string()]).optional(),
    message: z.string().optional(),
  })
  .describe("One NDJSON line of the exec stream");

export const screencastEvent = z
  .object({
    image_data: z.string().describe("base64 JPEG"),
    metadata: z.object({ timestamp: z.number(), viewport: z.object({ width: z.number(), height: z.number() }) }),
  })
  .describe("data of each unnamed SSE event; a `: heartbeat` comment every 15 s");

export const sessionEvent = z
  .object({
    request_id: z.string(),
    action: z.unknown().optional(),
    status: z.string().optional(),
    error_message: z.string().optional(),
    timestamp: z.string().optional(),
  })
  .describe("data of the SSE events action_request, action_response, exec_output, exec_exit");

// ---- /v1 ----
const usage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

export const model = z.looseObject({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});
export const modelList = z.object({ object: z.literal("list"), data: z.array(model) });

export const chatCompletion = z.looseObject({
  id: z.string().describe("chatcmpl-…"),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.number().int(),
      message: z.looseObject({
        role: z.literal("assistant"),
        content: z.string().nullable(),
        tool_calls: z.array(z.unknown()).optional(),
      }),
      finish_reason: z.enum(["stop", "length", "tool_calls"]),
    }),
  ),
  usage,
});

export const chatCompletionChunk = z
  .looseObject({
    id: z.string(),
    object: z.literal("chat.completion.chunk"),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(z.unknown()),
  })
  .describe("data of each SSE event when stream is true; the stream ends with `data: [DONE]`");

export const textCompletion = z.looseObject({
  id: z.string(),
  object: z.literal("text_completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(z.looseObject({ index: z.number().int(), text: z.string(), finish_reason: z.string().nullable() })),
  usage,
});

export const embeddingList = z.object({
  object: z.literal("list"),
  data: z.array(
    z.object({
      object: z.literal("embedding"),
      index: z.number().int(),
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
});

export const responseObject = z
  .looseObject({
    id: z.string(),
    object: z.literal("response"),
    status: z.string(),
    model: z.string(),
    output: z.array(z.unknown()),
  })
  .describe("OpenAI Responses object; output items include message, function_call and computer_call");
