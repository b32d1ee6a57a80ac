// The scripted chat upstream behind tests/api/models-responses*.test.ts: an OpenAI-wire
// model on 127.0.0.1 that answers a tool call when a tool fits the last user text, text
// otherwise, cuts a call at CUT_AT tokens, and records every request it is sent.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { freePort, startServer, type TestServer } from "./harness";
import { scriptedUpstream } from "./models-helpers";

/** Every request body the scripted model was sent, oldest first. */
export const received: Record<string, any>[] = [];

const usage = { prompt_tokens: 17, completion_tokens: 9, total_tokens: 26 };
const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
// The button of the site's /form page spans x 0-200, y 100-160.
export const CLICK = { type: "click", x: 60, y: 130, button: "left" };

// A max_tokens the scripted model cannot finish a call within: it stops mid-arguments with `length`.
export const CUT_AT = 7;
export const CUT_ARGS = '{"type": "drag", "path": [{"x": 1';

/** What the scripted model answers: a call when a tool fits the last user text, else text. */
function answer(body: Record<string, any>): {
  call?: { name: string; arguments: string };
  text?: string;
  finish?: string;
} {
  const last = body.messages.at(-1);
  if (body.max_tokens === CUT_AT) return { call: { name: "computer", arguments: CUT_ARGS }, finish: "length" };
  const names = (body.tools ?? []).map((t: any) => t.function.name);
  const lastIsText = last.role === "user" && typeof last.content === "string";
  if (lastIsText && names.includes("computer")) return { call: { name: "computer", arguments: JSON.stringify(CLICK) } };
  if (lastIsText && names.includes("get_weather"))
    return { call: { name: "get_weather", arguments: '{"city":"Paris"}' } };
  if (Array.isArray(last.content) && last.content.some((p: any) => p.type === "image_url"))
    return { text: "I see the clicked page." };
  return { text: last.role === "tool" ? "It is 21 degrees." : "plain answer" };
}

export function scripted(body: any, res: ServerResponse) {
  const a = answer(body);
  const base = { id: "chatcmpl-up", created: 1, model: body.model };
  const toolCall = a.call && { id: "call_up_1", type: "function", function: a.call };
  if (!body.stream) {
    const message = toolCall
      ? { role: "assistant", content: null, tool_calls: [toolCall] }
      : { role: "assistant", content: a.text };
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(
      JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: a.finish ?? (toolCall ? "tool_calls" : "stop") }],
        usage,
      }),
    );
  }
  const chunk = (delta: unknown, finish: string | null = null) =>
    frame({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
  const args = a.call?.arguments ?? "";
  const parts = a.call
    ? [
        chunk({ role: "assistant", content: null }),
        chunk({
          tool_calls: [{ index: 0, id: "call_up_1", type: "function", function: { name: a.call.name, arguments: "" } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 9) } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(9) } }] }),
        chunk({}, a.finish ?? "tool_calls"),
      ]
    : [
        chunk({ role: "assistant", content: "" }),
        chunk({ content: a.text!.slice(0, 6) }),
        chunk({ content: a.text!.slice(6) }),
        chunk({}, "stop"),
      ];
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(
    parts.join("") + frame({ ...base, object: "chat.completion.chunk", choices: [], usage }) + "data: [DONE]\n\n",
  );
}

export const weather = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: true,
};
export const computerTool = {
  type: "computer_use_preview" as const,
  display_width: 1280,
  display_height: 720,
  environment: "browser" as const,
};

export const collect = async (stream: AsyncIterable<ResponseStreamEvent>) => {
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
};

/** The scripted model on a free loopback port, and a server of ours serving it as `up.agent`. */
export async function startScriptedGateway(): Promise<{ gateway: TestServer; upstream: Server }> {
  const port = await freePort();
  const upstream = createServer(scriptedUpstream(received, scripted));
  await new Promise<void>((r) => upstream.listen(port, "127.0.0.1", r));
  const gateway = await startServer({
    env: {
      MODELS: JSON.stringify({
        "up.agent": { backend: "openai-compatible", url: `http://127.0.0.1:${port}/v1`, upstreamModel: "scripted-1" },
      }),
    },
  });
  return { gateway, upstream };
}
