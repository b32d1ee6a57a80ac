// A stand-in for Anthropic's Messages API on 127.0.0.1, for API tests of the
// anthropic backend. It speaks the wire format as Anthropic's SDK defines it:
// POST /v1/messages with x-api-key and anthropic-version, content blocks
// (text, image with base64 or url source, tool_use, tool_result), tools
// (custom with input_schema, computer_20250124 / computer_20251124 only with
// their anthropic-beta header), answers as a Message or as SSE events
// (message_start, content_block_start/delta/stop, message_delta,
// message_stop), and errors as {type: "error", error: {type, message}}. Like
// the hosted service it cannot fetch private addresses: an image URL on
// loopback or a private network is refused with a 400. It checks the
// conversation as the service does (every tool_use answered by a tool_result
// in the next user turn). Each request answers the next turn of a script.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback } from "./loopback";

type Json = Record<string, any>;

export type ClaudeTurn =
  | { text?: string; toolUse?: { name: string; input: Json }[]; stopReason?: string }
  | { error: { status: number; type: string; message: string } };

export interface AnthropicStandIn {
  /** Base URL including /v1, as MODELS' `url` takes it. */
  url: string;
  requests: Array<{ headers: IncomingMessage["headers"]; body: Json }>;
  setScript(turns: ClaudeTurn[]): void;
  close(): Promise<void>;
}

export const CLAUDE_USAGE_OUT = 11;
const BETAS: Record<string, string> = {
  computer_20250124: "computer-use-2025-01-24",
  computer_20251124: "computer-use-2025-11-24",
};

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const PRIVATE_HOST = /^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|0\.|\[::1\]|\[f[cd])/i;

function checkImage(block: Json, where: string) {
  const source = block.source ?? {};
  if (source.type === "base64") {
    if (!["image/png", "image/jpeg", "image/gif", "image/webp"].includes(source.media_type))
      throw new Refusal(
        400,
        "invalid_request_error",
        `${where}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
      );
    if (typeof source.data !== "string" || !/^[A-Za-z0-9+/]+=*$/.test(source.data))
      throw new Refusal(400, "invalid_request_error", `${where}.source.data: invalid base64 data`);
  } else if (source.type === "url") {
    const host = new URL(source.url).hostname;
    if (PRIVATE_HOST.test(host))
      throw new Refusal(
        400,
        "invalid_request_error",
        "Unable to download the file. Please verify the URL and try again.",
      );
  } else throw new Refusal(400, "invalid_request_error", `${where}.source.type: Input tag '${source.type}' is invalid`);
}

/** The checks of the hosted API that the backend's request must pass. */
function validate(headers: IncomingMessage["headers"], body: Json, apiKey: string) {
  if (headers["anthropic-version"] !== "2023-06-01")
    throw new Refusal(400, "invalid_request_error", "anthropic-version: header is required");
  if (headers["x-api-key"] !== apiKey) throw new Refusal(401, "authentication_error", "invalid x-api-key");
  if (typeof body.model !== "string") throw new Refusal(400, "invalid_request_error", "model: Field required");
  if (!Number.isInteger(body.max_tokens)) throw new Refusal(400, "invalid_request_error", "max_tokens: Field required");
  if (!Array.isArray(body.messages) || !body.messages.length)
    throw new Refusal(400, "invalid_request_error", "messages: at least one message is required");
  const betas = String(headers["anthropic-beta"] ?? "").split(",");
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (tool.type && tool.type !== "custom") {
      const beta = BETAS[tool.type];
      if (!beta || !betas.includes(beta))
        throw new Refusal(
          400,
          "invalid_request_error",
          `tools.${i}: Input tag '${tool.type}' found using 'type' does not match any of the expected tags`,
        );
      if (!Number.isInteger(tool.display_width_px) || !Number.isInteger(tool.display_height_px))
        throw new Refusal(400, "invalid_request_error", `tools.${i}.display_width_px: Field required`);
    } else if (!tool.input_schema)
      throw new Refusal(400, "invalid_request_error", `tools.${i}.input_schema: Field required`);
  }
  let pending: string[] = [];
  for (const [i, message] of body.messages.entries()) {
    const blocks: Json[] = typeof message.content === "string" ? [] : message.content;
    if (message.role === "user") {
      const answered = blocks.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id);
      const missing = pending.filter((id) => !answered.includes(id));
      if (missing.length)
        throw new Refusal(
          400,
          "invalid_request_error",
          `messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(", ")}`,
        );
      pending = [];
    } else pending = blocks.filter((b) => b.type === "tool_use").map((b) => b.id);
    for (const [j, block] of blocks.entries()) {
      if (block.type === "image") checkImage(block, `messages.${i}.content.${j}`);
      if (block.type === "tool_result" && Array.isArray(block.content))
        for (const [k, inner] of block.content.entries())
          if (inner.type === "image") checkImage(inner, `messages.${i}.content.${j}.content.${k}`);
    }
  }
}

let ids = 0;
const newId = (prefix: string) => `${prefix}_${String(++ids).padStart(24, "0")}`;

function message(body: Json, turn: Exclude<ClaudeTurn, { error: unknown }>) {
  const content: Json[] = [
    ...(turn.text ? [{ type: "text", text: turn.text }] : []),
    ...(turn.toolUse ?? []).map((t) => ({ type: "tool_use", id: newId("toolu"), name: t.name, input: t.input })),
  ];
  const inputTokens = Math.ceil(JSON.stringify(body.messages).length / 40);
  return {
    id: newId("msg"),
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: turn.stopReason ?? (turn.toolUse?.length ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: {
      input_tokens: inputTokens,
      output_tokens: CLAUDE_USAGE_OUT,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

function stream(res: ServerResponse, reply: ReturnType<typeof message>) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (type: string, data: Json) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("message_start", {
    message: { ...reply, content: [], stop_reason: null, usage: { ...reply.usage, output_tokens: 1 } },
  });
  send("ping", {});
  for (const [index, block] of reply.content.entries()) {
    if (block.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      const half = Math.ceil(block.text.length / 2);
      for (const text of [block.text.slice(0, half), block.text.slice(half)])
        if (text) send("content_block_delta", { index, delta: { type: "text_delta", text } });
    } else {
      send("content_block_start", { index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block.input);
      const half = Math.ceil(json.length / 2);
      for (const partial_json of [json.slice(0, half), json.slice(half)])
        send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
    }
    send("content_block_stop", { index });
  }
  send("message_delta", {
    delta: { stop_reason: reply.stop_reason, stop_sequence: null },
    usage: { output_tokens: reply.usage.output_tokens },
  });
  send("message_stop", {});
  res.end();
}

export async function startAnthropicStandIn(apiKey = "sk-ant-test"): Promise<AnthropicStandIn> {
  const requests: AnthropicStandIn["requests"] = [];
  let script: ClaudeTurn[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const fail = (status: number, type: string, msg: string) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
        res.end(JSON.stringify({ type: "error", error: { type, message: msg } }));
      };
      if (req.method !== "POST" || req.url !== "/v1/messages") return fail(404, "not_found_error", "Not found");
      const body = JSON.parse(raw) as Json;
      requests.push({ headers: req.headers, body });
      try {
        validate(req.headers, body, apiKey);
      } catch (err) {
        if (err instanceof Refusal) return fail(err.status, err.type, err.message);
        throw err;
      }
      const turn = script.shift() ?? { text: "The script is finished." };
      if ("error" in turn) return fail(turn.error.status, turn.error.type, turn.error.message);
      const reply = message(body, turn);
      if (body.stream) return stream(res, reply);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply));
    });
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: `${loopback.url}/v1`,
    requests,
    setScript: (turns) => {
      script = [...turns];
    },
    close: loopback.close,
  };
}
