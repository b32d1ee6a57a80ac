// /v1/responses with the official client's `responses.create`, translated to
// chat completions for a scripted OpenAI-wire upstream on 127.0.0.1 (which
// records what it is sent) and for the local placeholder model: text, the
// typed stream events in order, `previous_response_id` chaining and its
// organization scope, and a computer-use round trip on a real browser session.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, execute, html, startSite, type Site, type Target } from "./computers-fixtures";
import { createOrgKey, freePort, startServer, type TestServer } from "./harness";
import { closeDbs, CUA, openai, scriptedUpstream, usageRow } from "./models-helpers";
import { waitFor } from "./wait-for";

let gateway: TestServer;
let upstream: Server;
let site: Site;
let key: string;
let target: Target;
const received: Record<string, any>[] = [];

const usage = { prompt_tokens: 17, completion_tokens: 9, total_tokens: 26 };
const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
// The button of the site's /form page spans x 0-200, y 100-160.
const CLICK = { type: "click", x: 60, y: 130, button: "left" };

// A max_tokens the scripted model cannot finish a call within: it stops mid-arguments with `length`.
const CUT_AT = 7;
const CUT_ARGS = '{"type": "drag", "path": [{"x": 1';

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

function scripted(body: any, res: ServerResponse) {
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

const weather = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: true,
};
const computerTool = {
  type: "computer_use_preview" as const,
  display_width: 1280,
  display_height: 720,
  environment: "browser" as const,
};

beforeAll(async () => {
  const port = await freePort();
  upstream = createServer(scriptedUpstream(received, scripted));
  await new Promise<void>((r) => upstream.listen(port, "127.0.0.1", r));
  gateway = await startServer({
    env: {
      MODELS: JSON.stringify({
        "up.agent": { backend: "openai-compatible", url: `http://127.0.0.1:${port}/v1`, upstreamModel: "scripted-1" },
      }),
    },
  });
  key = await createOrgKey(gateway, "Responses Org");
  target = { base: gateway.url, key };
  site = await startSite();
});

afterAll(async () => {
  await closeDbs();
  await site?.close();
  await gateway?.destroy();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
});

const collect = async (stream: AsyncIterable<ResponseStreamEvent>) => {
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
};

describe("/v1/responses over a chat upstream", () => {
  it("answers text with instructions as the system turn, and meters it as `responses`", async () => {
    const { data, response } = await openai(gateway.url, key)
      .responses.create({ model: "up.agent", input: "Hello", instructions: "Be brief", max_output_tokens: 50 })
      .withResponse();
    expect(data).toMatchObject({
      object: "response",
      status: "completed",
      model: "up.agent",
      output_text: "plain answer",
    });
    expect(data.id).toMatch(/^resp_/);
    expect(data.output).toEqual([
      {
        type: "message",
        id: expect.stringMatching(/^msg_/),
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "plain answer", annotations: [] }],
      },
    ]);
    expect(data.usage).toMatchObject({ input_tokens: 17, output_tokens: 9, total_tokens: 26 });
    expect(received.at(-1)).toEqual({
      model: "scripted-1",
      messages: [
        { role: "system", content: "Be brief" },
        { role: "user", content: "Hello" },
      ],
      max_tokens: 50,
    });
    const row = await usageRow(response.headers.get("x-request-id")!, gateway.databaseUrl);
    expect(row).toMatchObject({
      endpoint: "responses",
      model: "up.agent",
      inputTokens: 17,
      outputTokens: 9,
      status: 200,
    });
    // The same cost header as the other endpoints, equal to the row's cost.
    expect(Number(response.headers.get("x-cabin-cost-usd"))).toBeCloseTo(Number(row.costUsd), 12);
  });

  it("streams the typed events in order: text", async () => {
    const events = await collect(
      await openai(gateway.url, key).responses.create({ model: "up.agent", input: "Hello", stream: true }),
    );
    expect(events.map((e) => e.type)).toEqual([
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
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const deltas = events
      .filter((e) => e.type === "response.output_text.delta")
      .map((e) => (e as { delta: string }).delta);
    expect(deltas.join("")).toBe("plain answer");
    const completed = events.at(-1) as Extract<ResponseStreamEvent, { type: "response.completed" }>;
    expect(completed.response.output[0]).toMatchObject({
      type: "message",
      content: [{ type: "output_text", text: "plain answer" }],
    });
    expect(completed.response.usage).toMatchObject({ total_tokens: 26 });
  });

  it("streams a function call: arguments in fragments, then done", async () => {
    const events = await collect(
      await openai(gateway.url, key).responses.create({
        model: "up.agent",
        input: "Weather?",
        tools: [weather],
        stream: true,
      }),
    );
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const done = events.find((e) => e.type === "response.output_item.done") as Extract<
      ResponseStreamEvent,
      { type: "response.output_item.done" }
    >;
    expect(done.item).toMatchObject({
      type: "function_call",
      call_id: "call_up_1",
      name: "get_weather",
      arguments: '{"city":"Paris"}',
      status: "completed",
    });
    expect(received.at(-1)!.tools).toEqual([
      {
        type: "function",
        function: { name: "get_weather", description: "Weather", parameters: weather.parameters, strict: true },
      },
    ]);
  });

  it("chains previous_response_id within the organization, stores, reads back and refuses cancel", async () => {
    const client = openai(gateway.url, key);
    const first = await client.responses.create({
      model: "up.agent",
      input: [{ role: "user", content: "My name is Ada" }],
    });
    const second = await client.responses.create({
      model: "up.agent",
      input: "What is my name?",
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(received.at(-1)!.messages).toEqual([
      { role: "user", content: "My name is Ada" },
      { role: "assistant", content: "plain answer" },
      { role: "user", content: "What is my name?" },
    ]);
    const stored = await client.responses.retrieve(second.id);
    expect(stored).toMatchObject({ id: second.id, status: "completed", output: second.output });

    const cancel = await fetch(`${gateway.url}/v1/responses/${second.id}/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(cancel.status).toBe(400);
    expect((await cancel.json()).error.message).toMatch(/background/);

    const stranger = openai(gateway.url, await createOrgKey(gateway, "Other Org"));
    await expect(stranger.responses.retrieve(second.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      stranger.responses.create({ model: "up.agent", input: "hi", previous_response_id: first.id }),
    ).rejects.toMatchObject({ status: 404, param: "previous_response_id" });

    const unstored = await client.responses.create({ model: "up.agent", input: "x", store: false });
    await expect(client.responses.retrieve(unstored.id)).rejects.toMatchObject({ status: 404 });
  });

  it("round-trips a computer_call: executed on a real browser session, answered with its real screenshot", async () => {
    const client = openai(gateway.url, key);
    const session = await createSession({}, target);
    try {
      await execute(session.id, { type: "go_to_url", url: `${site.url}/form` }, target);
      const first = await client.responses.create({
        model: "up.agent",
        input: "Press the go button",
        tools: [computerTool],
        truncation: "auto",
      });
      const call = first.output.find((item) => item.type === "computer_call");
      expect(call).toMatchObject({
        type: "computer_call",
        call_id: "call_up_1",
        action: CLICK,
        pending_safety_checks: [],
        status: "completed",
      });
      const fn = received.at(-1)!.tools[0].function;
      expect(fn.name).toBe("computer");

      const clicked = await execute(
        session.id,
        call!.type === "computer_call" ? (call!.action as unknown as Record<string, unknown>) : {},
        target,
      );
      expect(clicked.status).toBe("success");
      await waitFor(() => html(session.id, target), {
        until: (h) => h.includes("CLICKED:"),
        timeoutMs: 10_000,
        message: "the click reached the page",
      });
      const shot = await execute(session.id, { type: "screenshot", base64: true }, target);
      const imageUrl = `data:${shot.result.mime_type};base64,${shot.result.screenshot}`;

      const second = await client.responses.create({
        model: "up.agent",
        previous_response_id: first.id,
        tools: [computerTool],
        input: [
          {
            type: "computer_call_output",
            call_id: call!.call_id,
            output: { type: "computer_screenshot", image_url: imageUrl },
          },
        ],
      });
      expect(second.output_text).toBe("I see the clicked page.");
      const messages = received.at(-1)!.messages;
      expect(messages.slice(0, 3)).toEqual([
        { role: "user", content: "Press the go button" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_up_1", type: "function", function: { name: "computer", arguments: JSON.stringify(CLICK) } },
          ],
        },
        { role: "tool", tool_call_id: "call_up_1", content: expect.any(String) },
      ]);
      const image = messages[3].content.find((p: any) => p.type === "image_url");
      expect(image.image_url.url).toBe(imageUrl);
    } finally {
      await fetch(`${gateway.url}/computers/${session.id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${key}` },
      });
    }
  });

  it("streams a computer_call announced whole: added, then done with its action", async () => {
    const events = await collect(
      await openai(gateway.url, key).responses.create({
        model: "up.agent",
        input: "Press go",
        tools: [computerTool],
        stream: true,
      }),
    );
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.output_item.done",
      "response.completed",
    ]);
    const added = events[2] as Extract<ResponseStreamEvent, { type: "response.output_item.added" }>;
    expect(added.item).toMatchObject({ type: "computer_call", call_id: "call_up_1", action: CLICK });
    const completed = events.at(-1) as Extract<ResponseStreamEvent, { type: "response.completed" }>;
    expect(completed.response.output).toEqual([
      (events[3] as Extract<ResponseStreamEvent, { type: "response.output_item.done" }>).item,
    ]);
  });

  it("marks the call the output limit cut as incomplete, whole and streamed", async () => {
    const client = openai(gateway.url, key);
    const cutCall = { type: "function_call", name: "computer", arguments: CUT_ARGS, status: "incomplete" };
    const cut = await client.responses.create({
      model: "up.agent",
      input: "Drag it",
      tools: [computerTool],
      max_output_tokens: CUT_AT,
    });
    expect(cut).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output: [cutCall],
    });
    expect((await client.responses.retrieve(cut.id)).output).toEqual(cut.output);

    const events = await collect(
      await client.responses.create({
        model: "up.agent",
        input: "Drag it",
        tools: [computerTool],
        max_output_tokens: CUT_AT,
        stream: true,
      }),
    );
    expect(events.map((e) => e.type).slice(-3)).toEqual([
      "response.output_item.added",
      "response.output_item.done",
      "response.incomplete",
    ]);
    expect((events.at(-2) as Extract<ResponseStreamEvent, { type: "response.output_item.done" }>).item).toMatchObject(
      cutCall,
    );
  });

  it("refuses bad input naming the parameter", async () => {
    const res = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "up.agent",
        input: "x",
        tools: [{ type: "computer_use_preview", display_height: 10 }],
      }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      type: "invalid_request_error",
      param: expect.stringContaining("tools"),
    });
  });
});

describe("/v1/responses on the local placeholder model (the shared server)", () => {
  it("accepts an image it cannot see (capabilities.image_inputs 'ignored'): a computer-use loop runs on a fresh install", async () => {
    const input = [
      {
        role: "user" as const,
        content: [
          { type: "input_text" as const, text: "see" },
          { type: "input_image" as const, image_url: "data:image/png;base64,AAAA", detail: "auto" as const },
        ],
      },
    ];
    const res = await openai().responses.create({ model: CUA, input, max_output_tokens: 4 });
    expect(res.status).toBe("incomplete");
    expect(res.usage!.output_tokens).toBe(4);
    const info = await openai().models.retrieve(CUA);
    expect(info).toMatchObject({ capabilities: { vision: false, image_inputs: "ignored" } });
  });

  it("produces a valid computer_call with coordinates on the display", async () => {
    // No output limit but the context: the grammar bounds every call (strings 48 characters, arrays 4 items,
    // integers 16 digits), so it always ends. A limit of 120 tokens once cut a drag mid-path (CI, 2026-11-27).
    const res = await openai().responses.create({
      model: CUA,
      input: "Click somewhere",
      tools: [computerTool],
      tool_choice: "required",
    });
    expect(res.status).toBe("completed");
    const call = res.output.find((item) => item.type === "computer_call");
    expect(call, JSON.stringify(res.output)).toBeDefined();
    const action = (call as { action: Record<string, any> }).action;
    expect(["click", "double_click", "drag", "keypress", "move", "screenshot", "scroll", "type", "wait"]).toContain(
      action.type,
    );
    for (const [x, y] of "x" in action ? [[action.x, action.y]] : (action.path ?? []).map((p: any) => [p.x, p.y])) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1280);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThan(720);
    }
  });
});
