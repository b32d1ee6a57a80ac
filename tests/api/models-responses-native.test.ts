// @needs server light
// /v1/responses passed through to an upstream that speaks the Responses API
// natively (`responses: "native"`): a scripted server on 127.0.0.1 answers
// /v1/responses; the gateway forwards the request with the upstream's model
// name, relays the answer untouched (streamed bytes included), counts usage
// from it, stores it for GET and `previous_response_id`, and can fall back
// from a native backend to a translated one.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { listenOnLoopback, type LoopbackServer } from "./loopback";
import { closeDbs, openai, postV1, usageRow } from "./models-helpers";
import { parseSseText } from "@/lib/api/sse-reader";

const UPSTREAM_MODEL = "upstream-native-model";
const received: { url: string; body: any }[] = [];
let lastStreamText = "";
let count = 0;

function nativeResponse(body: any) {
  count++;
  const text = `native answer ${count}`;
  const item = {
    id: `msg_up_${count}`,
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
  const usage = {
    input_tokens: 7,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 3,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 10,
  };
  const response = {
    id: `resp_up_${count}`,
    object: "response",
    created_at: 1700000000,
    status: "completed",
    model: body.model,
    output: [item],
    usage,
    error: null,
    incomplete_details: null,
  };
  return { response, item, text };
}

function answer(req: IncomingMessage, body: any, res: ServerResponse) {
  received.push({ url: req.url!, body });
  if (req.url === "/v1/chat/completions") {
    res.writeHead(200, { "content-type": "application/json" });
    const message = { role: "assistant", content: "answered as chat" };
    return res.end(
      JSON.stringify({
        id: "c",
        object: "chat.completion",
        created: 1,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: "stop" }],
        usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 },
      }),
    );
  }
  const { response, item, text } = nativeResponse(body);
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(response));
  }
  let sequence = 0;
  const event = (type: string, fields: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`;
  const started = { ...response, status: "in_progress", output: [], usage: null };
  const empty = { ...item, status: "in_progress", content: [] };
  const frames = [
    event("response.created", { response: started }),
    event("response.in_progress", { response: started }),
    event("response.output_item.added", { output_index: 0, item: empty }),
    event("response.content_part.added", {
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    }),
    event("response.output_text.delta", {
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: text.slice(0, 7),
    }),
    event("response.output_text.delta", { item_id: item.id, output_index: 0, content_index: 0, delta: text.slice(7) }),
    event("response.output_text.done", { item_id: item.id, output_index: 0, content_index: 0, text }),
    event("response.content_part.done", { item_id: item.id, output_index: 0, content_index: 0, part: item.content[0] }),
    event("response.output_item.done", { output_index: 0, item }),
    event("response.completed", { response }),
  ];
  lastStreamText = frames.join("");
  res.writeHead(200, { "content-type": "text/event-stream" });
  // Sent in pieces that cut events in half, as a network may.
  const whole = Buffer.from(lastStreamText);
  for (let i = 0; i < whole.length; i += 97) res.write(whole.subarray(i, i + 97));
  res.end();
}

/** Starts a native stream, then breaks the connection before response.completed. */
function cutShort(_req: IncomingMessage, body: any, res: ServerResponse) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write(
    `event: response.created\ndata: ${JSON.stringify({ type: "response.created", sequence_number: 0, response: { id: "resp_cut", status: "in_progress", model: body.model, output: [] } })}\n\n`,
  );
  setTimeout(() => res.destroy(), 50);
}

function broken(_req: IncomingMessage, _body: unknown, res: ServerResponse) {
  res.writeHead(500, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message: "native upstream down" } }));
}

async function serve(handler: (req: IncomingMessage, body: any, res: ServerResponse) => void): Promise<LoopbackServer> {
  return listenOnLoopback(
    createServer((req, res) => {
      let raw = "";
      req.on("data", (d) => (raw += d));
      req.on("end", () => handler(req, JSON.parse(raw), res));
    }),
  );
}

let gateway: TestServer;
let key: string;
let upstream: LoopbackServer;
let down: LoopbackServer;
let cut: LoopbackServer;

beforeAll(async () => {
  [upstream, down, cut] = await Promise.all([serve(answer), serve(broken), serve(cutShort)]);
  gateway = await startServer({
    env: {
      MODELS: JSON.stringify({
        "nat.cua": {
          backend: "openai-compatible",
          name: "native",
          url: `${upstream.url}/v1`,
          upstreamModel: UPSTREAM_MODEL,
          responses: "native",
          prices: { input: 1, output: 2 },
        },
        "nat.cut": { backend: "openai-compatible", name: "cut", url: `${cut.url}/v1`, responses: "native" },
        "nat.mixed": {
          backends: [
            { backend: "openai-compatible", name: "native-down", url: `${down.url}/v1`, responses: "native" },
            { backend: "openai-compatible", name: "as-chat", url: `${upstream.url}/v1`, upstreamModel: "chat-model" },
          ],
        },
      }),
    },
  });
  key = await createOrgKey(gateway, "Native Org");
});

afterAll(async () => {
  await closeDbs();
  await gateway?.destroy();
  await Promise.all([upstream?.close(), down?.close(), cut?.close()]);
});

describe("native /v1/responses passthrough", () => {
  // Also: returns its answer untouched and records its usage.
  it("forwards the request with the upstream's model name", async () => {
    const client = openai(gateway.url, key);
    const { data, response } = await client.responses
      .create({ model: "nat.cua", input: "first question", instructions: "be brief", max_output_tokens: 50 })
      .withResponse();
    expect(data).toMatchObject({ id: "resp_up_1", model: UPSTREAM_MODEL, status: "completed" });
    expect(data.output_text).toBe("native answer 1");
    const sent = received.at(-1)!;
    expect(sent.url).toBe("/v1/responses");
    expect(sent.body).toEqual({
      model: UPSTREAM_MODEL,
      input: "first question",
      instructions: "be brief",
      max_output_tokens: 50,
    });
    expect(response.headers.get("x-cabin-cost-usd")).toBe(String((7 * 1 + 3 * 2) / 1e6));

    const row = await usageRow(response.headers.get("x-request-id")!, gateway.databaseUrl);
    expect(row).toMatchObject({
      endpoint: "responses",
      model: "nat.cua",
      inputTokens: 7,
      outputTokens: 3,
      status: 200,
      stream: false,
      backend: "native",
    });
    expect((await client.responses.retrieve("resp_up_1")).output).toEqual(data.output);
  });

  // Also: relaying the upstream's bytes as they are.
  it("chains previous_response_id from the stored conversation, streamed", async () => {
    const client = openai(gateway.url, key);
    const first = await client.responses.create({ model: "nat.cua", input: "question one" });
    const events: string[] = [];
    let text = "";
    for await (const event of await client.responses.create({
      model: "nat.cua",
      input: "question two",
      previous_response_id: first.id,
      stream: true,
    })) {
      events.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
    }
    expect(events).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const second = received.at(-1)!.body;
    expect(text).toBe(`native answer ${count}`);
    // The stored first turn (its input and output) comes first; the upstream gets no id it never stored for us.
    expect(second.previous_response_id).toBeUndefined();
    expect(second.input).toEqual([
      { type: "message", role: "user", content: "question one" },
      first.output[0],
      { type: "message", role: "user", content: "question two" },
    ]);

    // Raw: the stream is the upstream's text, byte for byte.
    const res = await postV1(
      "/responses",
      { model: "nat.cua", input: "raw", stream: true },
      { base: gateway.url, key },
    );
    expect(await res.text()).toBe(lastStreamText);
    const row = await usageRow(res.headers.get("x-request-id")!, gateway.databaseUrl);
    expect(row).toMatchObject({
      endpoint: "responses",
      inputTokens: 7,
      outputTokens: 3,
      status: 200,
      stream: true,
      backend: "native",
    });
    // Stored before the end reached the client: the next turn can chain from it at once.
    const stored = await client.responses.retrieve(`resp_up_${count}`);
    expect(stored).toMatchObject({
      id: `resp_up_${count}`,
      status: "completed",
      output: [{ content: [{ text: `native answer ${count}` }] }],
    });
  });

  it("reports a native stream that breaks before response.completed in-band, and records it as a failure", async () => {
    const res = await postV1("/responses", { model: "nat.cut", input: "hi", stream: true }, { base: gateway.url, key });
    expect(res.status).toBe(200);
    const events = parseSseText(await res.text()).flatMap((item) => (item.type === "event" ? [item] : []));
    expect(events[0]!.data).toContain("response.created");
    expect(events.at(-1)!.event).toBe("error");
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ type: "error", code: "upstream_error" });
    const row = await usageRow(res.headers.get("x-request-id")!, gateway.databaseUrl);
    expect(row).toMatchObject({ endpoint: "responses", status: 502, backend: "cut", stream: true });
  });

  it("falls back from a native backend that fails to a translated one", async () => {
    const { data, response } = await openai(gateway.url, key)
      .responses.create({ model: "nat.mixed", input: "hi" })
      .withResponse();
    expect(data.output_text).toBe("answered as chat");
    expect(received.at(-1)).toMatchObject({ url: "/v1/chat/completions", body: { model: "chat-model" } });
    const row = await usageRow(response.headers.get("x-request-id")!, gateway.databaseUrl);
    expect(row.backend).toBe("as-chat");
    expect(JSON.parse(row.attempts!).map((a: { backend: string; status: number }) => [a.backend, a.status])).toEqual([
      ["native-down", 502],
      ["as-chat", 200],
    ]);
  });
});
