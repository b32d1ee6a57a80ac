// The floor of `npm run bench:models`: a minimal upstream speaking the OpenAI wire format,
// answering at once, and the timing of one request to it (or through a gateway).
import type { ChildProcess } from "node:child_process";
import { spawnHttpChild } from "./child-server";

// It runs in a child process of its own, as a real upstream would: both paths
// then cross a process boundary, and only Cabin's hop is the difference.
const UPSTREAM_SOURCE =
  `
import { createServer } from "node:http";
const completion = JSON.stringify({
  id: "chatcmpl-up", object: "chat.completion", created: 1, model: "up",
  choices: [{ index: 0, message: { role: "assistant", content: "hello from upstream" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
});
const chunk = (delta, finish = null) =>
  "data: " + JSON.stringify({ id: "chatcmpl-up", object: "chat.completion.chunk", created: 1, model: "up", ` +
  `choices: [{ index: 0, delta, finish_reason: finish }] }) + "\\n\\n";
const streamBody =
  chunk({ role: "assistant", content: "" }) +
  ["hello", " from", " the", " upstream", " in", " eight", " small", " chunks"].map((t) => chunk({ content: t ` +
  `})).join("") +
  chunk({}, "stop") +
  "data: " + JSON.stringify({ id: "chatcmpl-up", object: "chat.completion.chunk", created: 1, model: "up", ` +
  `choices: [], usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 } }) + "\\n\\n" +
  "data: [DONE]\\n\\n";
const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (d) => (raw += d));
  req.on("end", () => {
    if (raw.includes('"stream":true')) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(streamBody);
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(completion);
    }
  });
});
server.keepAliveTimeout = 65000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

export async function startUpstream(): Promise<{ url: string; child: ChildProcess }> {
  const { port, child } = await spawnHttpChild(UPSTREAM_SOURCE);
  return { url: `http://127.0.0.1:${port}/v1`, child };
}

/** A small chat completion request, streamed or not. */
export const chatBody = (stream: boolean, model: string) =>
  JSON.stringify({
    model,
    messages: [{ role: "user", content: "hi" }],
    max_tokens: 8,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  });

/** Milliseconds to the whole answer, or to the first chunk with content when streamed. */
export async function timeRequest(
  url: string,
  key: string | undefined,
  payload: string,
  stream: boolean,
): Promise<number> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  const started = performance.now();
  const res = await fetch(url, { method: "POST", headers, body: payload });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  if (!stream) {
    await res.arrayBuffer();
    return performance.now() - started;
  }
  // Time to the first chunk that carries content, then drain the rest.
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  let first = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!first) {
      seen += decoder.decode(value, { stream: true });
      if (/"content":"[^"]/.test(seen)) first = performance.now() - started;
    }
  }
  return first;
}
