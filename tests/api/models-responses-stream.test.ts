// @needs server light
// /v1/responses streamed (and a cut call, whole and streamed) over the scripted chat
// upstream (tests/api/responses-scripted-model.ts): the typed events in the order the
// official client expects them, for text, a function call and a computer call.
import type { Server } from "node:http";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, type TestServer } from "./harness";
import { closeDbs, openai } from "./models-helpers";
import {
  CLICK,
  collect,
  computerTool,
  CUT_ARGS,
  CUT_AT,
  received,
  startScriptedGateway,
  weather,
} from "./responses-scripted-model";

let gateway: TestServer;
let upstream: Server;
let key: string;
beforeAll(async () => {
  ({ gateway, upstream } = await startScriptedGateway());
  key = await createOrgKey(gateway, "Responses Stream Org");
});

afterAll(async () => {
  await closeDbs();
  await gateway?.destroy();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
});

describe("/v1/responses streamed over a chat upstream", () => {
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
});
