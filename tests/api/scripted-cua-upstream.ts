// A deterministic computer-use model for API tests: an OpenAI-wire server on
// 127.0.0.1 that answers a known script of steps (click, type, keypress …,
// then the `done` function) and records every request it receives, so tests
// can drive a client-side loop and assert on what Cabin and clients sent.
//
// It speaks both wires Cabin can use towards an upstream:
// - POST {url}/responses: a Responses object whose output is the step as
//   items (message text, a `computer_call`, or a `function_call` of `done`),
//   as JSON or as typed SSE events when `stream: true`.
// - POST {url}/chat/completions: the step as an assistant message with a tool
//   call of the function `computer` (Cabin's chat form of the computer tool,
//   see `computerFunctionTool`) or of `done`, as JSON or as SSE chunks.
//
// Script coordinates are always written in the 0–1000 space (the space of the
// Lightcone `computer_use` tool). With `coordinateSpace: "pixels"` they are
// answered in pixels of the request's display instead (OpenAI's
// `computer_use_preview`): on /responses the display is the computer tool's
// display_width/height; on /chat/completions it is read from the `computer`
// function's description ("… of WxH pixels …").
//
// Pointing a Cabin model id at it (server env, see `startServer({env})`):
//   MODELS={"tzafon.northstar-cua-fast": {"backend": "openai-compatible",
//            "url": upstream.url, "responses": "native"}}
// forwards /v1/responses as is to this server's /responses; without
// `"responses": "native"` Cabin translates to /chat/completions instead.
// MODEL_ALIASES (docs/computer-use.md) can map further client ids onto it.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { judgeImages, type SeenImage } from "./hosted-image-rules";
import { listenOnLoopback } from "./loopback";

export interface ScriptedStep {
  action?: Record<string, unknown>;
  done?: { result: string };
  text?: string;
  /**
   * A call of another function tool the request offers (request_human, fill_credentials), by name with its arguments.
   */
  call?: { name: string; arguments: Record<string, unknown> };
}

export interface ScriptedUpstream {
  /** Base URL, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  /** Every request received, in order; `images` what a hosted provider decoded (with `hostedImages`). */
  requests: Array<{ path: string; body: any; images?: SeenImage[] }>;
  /** The next requests answer these steps in order; past the end, each answers `done`. */
  setScript(steps: ScriptedStep[]): void;
  close(): Promise<void>;
}

export interface ScriptedUpstreamOptions {
  coordinateSpace?: "0-1000" | "pixels";
  /** Treat images as a hosted provider does (hosted-image-rules.ts): a URL it cannot download fails the request. */
  hostedImages?: boolean;
}

type Json = Record<string, unknown>;
interface Display {
  width: number;
  height: number;
}

const DONE_PAST_SCRIPT: ScriptedStep = { done: { result: "the script is finished" } };
const USAGE_IN = 42;
const USAGE_OUT = 7;

/** 0–1000 → pixels of the display, the way the public examples rescale (`int(v / 1000 * size)`). */
export function toPixels(action: Json, display: Display): Json {
  const scale = (v: unknown, size: number) => (typeof v === "number" ? Math.floor((v / 1000) * size) : v);
  const out: Json = { ...action };
  for (const key of ["x", "x1", "x2"]) if (key in out) out[key] = scale(out[key], display.width);
  for (const key of ["y", "y1", "y2"]) if (key in out) out[key] = scale(out[key], display.height);
  if (Array.isArray(out.path)) out.path = (out.path as Json[]).map((p) => toPixels(p, display));
  return out;
}

function displayOfResponses(body: Json): Display | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  const tool = tools.find((t) => t.type === "computer_use" || t.type === "computer_use_preview");
  return tool ? { width: Number(tool.display_width), height: Number(tool.display_height) } : undefined;
}

function displayOfChat(body: Json): Display | undefined {
  const tools = Array.isArray(body.tools)
    ? (body.tools as Array<{ function?: { name?: string; description?: string } }>)
    : [];
  const computer = tools.find((t) => t.function?.name === "computer");
  const match = computer?.function?.description?.match(/(\d+)x(\d+) pixels/);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_scripted_${++counter}`;

/** The step as Responses output items: text first, then the call. */
function responseItems(step: ScriptedStep, action: Json | undefined): Json[] {
  const items: Json[] = [];
  if (step.text) {
    items.push({
      type: "message",
      id: nextId("msg"),
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: step.text, annotations: [] }],
    });
  }
  if (action)
    items.push({
      type: "computer_call",
      id: nextId("cu"),
      call_id: nextId("call"),
      action,
      pending_safety_checks: [],
      status: "completed",
    });
  if (step.call)
    items.push({
      type: "function_call",
      id: nextId("fc"),
      call_id: nextId("call"),
      name: step.call.name,
      arguments: JSON.stringify(step.call.arguments),
      status: "completed",
    });
  if (step.done)
    items.push({
      type: "function_call",
      id: nextId("fc"),
      call_id: nextId("call"),
      name: "done",
      arguments: JSON.stringify(step.done),
      status: "completed",
    });
  if (step.call)
    items.push({
      type: "function_call",
      id: nextId("fc"),
      call_id: nextId("call"),
      name: step.call.name,
      arguments: JSON.stringify(step.call.arguments),
      status: "completed",
    });
  return items;
}

function answerResponses(body: Json, step: ScriptedStep, action: Json | undefined, res: ServerResponse) {
  const output = responseItems(step, action);
  const text = output
    .filter((i) => i.type === "message")
    .map((i) => (i.content as Json[])[0]!.text as string)
    .join("");
  const response = {
    id: nextId("resp"),
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model: body.model,
    output,
    output_text: text,
    tools: body.tools ?? [],
    usage: { input_tokens: USAGE_IN, output_tokens: USAGE_OUT, total_tokens: USAGE_IN + USAGE_OUT },
  };
  if (body.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(response));
  }
  let sequence = 0;
  const event = (type: string, data: Json) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: sequence++ })}\n\n`;
  const parts = [event("response.created", { response: { ...response, status: "in_progress", output: [] } })];
  output.forEach((item, index) => {
    parts.push(event("response.output_item.added", { output_index: index, item }));
    parts.push(event("response.output_item.done", { output_index: index, item }));
  });
  parts.push(event("response.completed", { response }));
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(parts.join(""));
}

function answerChat(body: Json, step: ScriptedStep, action: Json | undefined, res: ServerResponse) {
  const toolCalls: Json[] = [];
  if (action)
    toolCalls.push({
      id: nextId("call"),
      type: "function",
      function: { name: "computer", arguments: JSON.stringify(action) },
    });
  if (step.done)
    toolCalls.push({
      id: nextId("call"),
      type: "function",
      function: { name: "done", arguments: JSON.stringify(step.done) },
    });
  if (step.call)
    toolCalls.push({
      id: nextId("call"),
      type: "function",
      function: { name: step.call.name, arguments: JSON.stringify(step.call.arguments) },
    });
  const finish = toolCalls.length ? "tool_calls" : "stop";
  const usage = { prompt_tokens: USAGE_IN, completion_tokens: USAGE_OUT, total_tokens: USAGE_IN + USAGE_OUT };
  const base = { id: nextId("chatcmpl"), created: Math.floor(Date.now() / 1000), model: body.model };
  if (body.stream !== true) {
    const message = {
      role: "assistant",
      content: step.text ?? null,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    };
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(
      JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
  }
  const chunk = (delta: Json, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  const parts = [chunk({ role: "assistant", content: step.text ?? "" })];
  toolCalls.forEach((call, index) => parts.push(chunk({ tool_calls: [{ index, ...call }] })));
  parts.push(chunk({}, finish));
  parts.push(
    `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage })}\n\n`,
    "data: [DONE]\n\n",
  );
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(parts.join(""));
}

export async function startScriptedUpstream(opts: ScriptedUpstreamOptions = {}): Promise<ScriptedUpstream> {
  const space = opts.coordinateSpace ?? "0-1000";
  const requests: ScriptedUpstream["requests"] = [];
  let script: ScriptedStep[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const path = (req.url ?? "/").split("?")[0]!;
    let body: Json;
    try {
      body = raw ? (JSON.parse(raw) as Json) : {};
    } catch {
      res.writeHead(400, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          error: { message: "body is not JSON", type: "invalid_request_error", param: null, code: null },
        }),
      );
    }
    requests.push({ path, body });
    const isResponses = req.method === "POST" && path.endsWith("/responses");
    const isChat = req.method === "POST" && path.endsWith("/chat/completions");
    if (!isResponses && !isChat) {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          error: {
            message: `no route ${req.method} ${path}`,
            type: "invalid_request_error",
            param: null,
            code: "not_found",
          },
        }),
      );
    }
    if (opts.hostedImages) {
      const verdict = judgeImages(body);
      requests.at(-1)!.images = verdict.images;
      if (verdict.refusal) {
        res.writeHead(verdict.refusal.status, { "content-type": "application/json" });
        return res.end(JSON.stringify(verdict.refusal.body));
      }
    }
    const step = script.shift() ?? DONE_PAST_SCRIPT;
    const display = isResponses ? displayOfResponses(body) : displayOfChat(body);
    const action = step.action && space === "pixels" && display ? toPixels(step.action, display) : step.action;
    if (isResponses) answerResponses(body, step, action, res);
    else answerChat(body, step, action, res);
  };

  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (piece: string) => (raw += piece));
    req.on("end", () => handle(req, res, raw));
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: `${loopback.url}/v1`,
    requests,
    setScript(steps) {
      script = [...steps];
    },
    close: () => loopback.close(),
  };
}
