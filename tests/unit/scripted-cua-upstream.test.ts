// @needs nothing
// The scripted computer-use upstream the API tests drive loops with: it must
// answer its script in order on both wires, rescale only when asked, record
// every request, and answer `done` once the script runs out.
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedUpstream, toPixels, type ScriptedUpstream } from "../api/scripted-cua-upstream";
import { parseSseText } from "@/lib/api/sse-reader";

let upstream: ScriptedUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

const tool = { type: "computer_use", display_width: 1280, display_height: 720, environment: "browser" };
const post = (path: string, body: unknown) =>
  fetch(`${upstream!.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("toPixels", () => {
  it("rescales x, y and drag paths from 0-1000 the way the public examples do", () => {
    expect(toPixels({ type: "click", x: 500, y: 500 }, { width: 1280, height: 720 })).toEqual({
      type: "click",
      x: 640,
      y: 360,
    });
    expect(
      toPixels(
        {
          type: "drag",
          path: [
            { x: 0, y: 1000 },
            { x: 999, y: 1 },
          ],
        },
        { width: 1280, height: 720 },
      ),
    ).toEqual({
      type: "drag",
      path: [
        { x: 0, y: 720 },
        { x: 1278, y: 0 },
      ],
    });
  });
});

describe("startScriptedUpstream", () => {
  it("answers /responses with the script in order, then done, and records every request", async () => {
    upstream = await startScriptedUpstream();
    upstream.setScript([
      { text: "clicking", action: { type: "click", x: 500, y: 250, button: "left" } },
      { done: { result: "ok" } },
    ]);
    const first = await (await post("/responses", { model: "m", tools: [tool], input: "go" })).json();
    expect(first.output.map((i: { type: string }) => i.type)).toEqual(["message", "computer_call"]);
    expect(first.output[1].action).toEqual({ type: "click", x: 500, y: 250, button: "left" });
    const second = await (await post("/responses", { model: "m", input: "next" })).json();
    expect(second.output[0]).toMatchObject({ type: "function_call", name: "done", arguments: '{"result":"ok"}' });
    const third = await (await post("/responses", { model: "m", input: "again" })).json();
    expect(third.output[0]).toMatchObject({ type: "function_call", name: "done" });
    expect(upstream.requests.map((r) => [r.path, r.body.input])).toEqual([
      ["/v1/responses", "go"],
      ["/v1/responses", "next"],
      ["/v1/responses", "again"],
    ]);
  });

  it("answers in pixels of the display when asked, streamed as typed events", async () => {
    upstream = await startScriptedUpstream({ coordinateSpace: "pixels" });
    upstream.setScript([{ action: { type: "click", x: 500, y: 500 } }]);
    const text = await (
      await post("/responses", {
        model: "m",
        tools: [{ ...tool, type: "computer_use_preview" }],
        input: "go",
        stream: true,
      })
    ).text();
    const events = parseSseText(text).flatMap((item) => (item.type === "event" ? [JSON.parse(item.data)] : []));
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.at(-1).response.output[0].action).toEqual({ type: "click", x: 640, y: 360 });
  });

  it("answers /chat/completions with a call of the function computer (pixels read from its description)", async () => {
    upstream = await startScriptedUpstream({ coordinateSpace: "pixels" });
    upstream.setScript([{ action: { type: "type", text: "hi" } }, { action: { type: "move", x: 1000, y: 0 } }]);
    const computer = {
      type: "function",
      function: { name: "computer", description: "Act on a browser screen of 800x600 pixels.", parameters: {} },
    };
    const first = await (await post("/chat/completions", { model: "m", tools: [computer], messages: [] })).json();
    expect(first.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { tool_calls: [{ function: { name: "computer", arguments: '{"type":"type","text":"hi"}' } }] },
    });
    const stream = await (
      await post("/chat/completions", { model: "m", tools: [computer], messages: [], stream: true })
    ).text();
    expect(stream).toContain(JSON.stringify(JSON.stringify({ type: "move", x: 800, y: 0 })).slice(1, -1));
    expect(stream.trim().endsWith("data: [DONE]")).toBe(true);
  });
});
