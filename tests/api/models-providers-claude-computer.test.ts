// @needs server light chromium
// Claude's own computer tool behind /v1/responses: a request carrying
// Lightcone's `computer_use` or OpenAI's `computer_use_preview` tool reaches
// the Messages API stand-in (./anthropic-stand-in.ts) as Claude's computer tool
// with its beta header, Claude's actions come back as computer_call actions in
// the caller's coordinate space, and the screenshots that follow go back as
// tool_result images. The last test drives a real page in a browser session
// with the loop the public examples run, its clicks and keys landing there.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startAnthropicStandIn, type AnthropicStandIn } from "./anthropic-stand-in";
import { api, createSession, execute, type Target } from "./computers-fixtures";
import { DONE_TOOL, normalizeAction, startFormSite, type ComputerTool, type FormSite } from "./cua-loop-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { postV1, readSse } from "./models-helpers";
import { waitFor } from "./wait-for";

let gateway: TestServer;
let claude: AnthropicStandIn;
let site: FormSite;
let target: Required<Target>;

const SHOT =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const SHOT_DATA = SHOT.slice(SHOT.indexOf(",") + 1);
const lightcone: ComputerTool = {
  type: "computer_use",
  display_width: 1280,
  display_height: 720,
  environment: "browser",
};
const openaiTool: ComputerTool = { ...lightcone, type: "computer_use_preview" };
type Item = Record<string, any>;

beforeAll(async () => {
  [claude, site] = await Promise.all([startAnthropicStandIn("sk-ant-cu"), startFormSite()]);
  const entry = (upstreamModel: string) => ({
    backend: "anthropic",
    url: claude.url,
    apiKey: "sk-ant-cu",
    upstreamModel,
  });
  gateway = await startServer({
    env: { MODELS: JSON.stringify({ claude: entry("claude-sonnet-4-5"), "claude-opus": entry("claude-opus-4-5") }) },
  });
  target = { base: gateway.url, key: await createOrgKey(gateway, "Claude CU Org") };
});

beforeEach(() => {
  claude.requests.length = 0;
});

afterAll(async () => {
  await gateway?.destroy();
  await Promise.all([claude?.close(), site?.close()]);
});

async function respond(body: Record<string, unknown>) {
  const res = await postV1("/responses", body, { base: target.base, key: target.key });
  const json = (await res.json()) as Item;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

const firstTurn = (text: string): Item[] => [
  {
    role: "user",
    content: [
      { type: "input_text", text },
      { type: "input_image", image_url: SHOT },
    ],
  },
];

describe("Claude's computer tool on /v1/responses", () => {
  // Also: the screenshot as a tool_result.
  it("computer_use: the tool goes as computer_20250124 with its beta, a click comes back in 0-1000", async () => {
    claude.setScript([
      {
        text: "Clicking Go.",
        toolUse: [{ name: "computer", input: { action: "left_click", coordinate: [640, 360] } }],
      },
      { toolUse: [{ name: "computer", input: { action: "type", text: "hello" } }] },
    ]);
    const input = firstTurn("Press Go");
    const first = await respond({ model: "claude", tools: [lightcone, DONE_TOOL], input });
    const sent = claude.requests[0]!;
    expect(String(sent.headers["anthropic-beta"]).split(",")).toContain("computer-use-2025-01-24");
    expect(sent.body.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: "computer_20250124",
          name: "computer",
          display_width_px: 1280,
          display_height_px: 720,
        }),
        expect.objectContaining({ name: "done", input_schema: DONE_TOOL.parameters }),
      ]),
    );
    expect(sent.body.messages[0].content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: SHOT_DATA },
    });
    const call = first.output.find((i: Item) => i.type === "computer_call");
    expect(call.action).toEqual({ type: "click", button: "left", x: 500, y: 500 });
    expect(call.call_id).toMatch(/^toolu_/);
    expect(first.output_text).toBe("Clicking Go.");

    const second = await respond({
      model: "claude",
      tools: [lightcone, DONE_TOOL],
      input: [
        ...input,
        ...first.output,
        {
          type: "computer_call_output",
          call_id: call.call_id,
          output: { type: "computer_screenshot", image_url: SHOT },
        },
      ],
    });
    expect(second.output.find((i: Item) => i.type === "computer_call").action).toEqual({ type: "type", text: "hello" });
    const replay = claude.requests[1]!.body.messages;
    expect(replay[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Clicking Go." },
        {
          type: "tool_use",
          id: call.call_id,
          name: "computer",
          input: { action: "left_click", coordinate: [640, 360] },
        },
      ],
    });
    expect(replay[2].content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: call.call_id,
      content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: SHOT_DATA } }],
    });
  });

  it("computer_use_preview: pixels as Claude gave them; scroll, keys and drags in the caller's actions", async () => {
    claude.setScript([
      {
        toolUse: [
          {
            name: "computer",
            input: { action: "scroll", coordinate: [100, 200], scroll_direction: "down", scroll_amount: 3 },
          },
          { name: "computer", input: { action: "key", text: "ctrl+a" } },
          {
            name: "computer",
            input: { action: "left_click_drag", start_coordinate: [10, 20], coordinate: [300, 400] },
          },
          { name: "computer", input: { action: "right_click", coordinate: [640, 360] } },
        ],
      },
    ]);
    const out = await respond({ model: "claude", tools: [openaiTool], input: firstTurn("Scroll") });
    expect(out.output.filter((i: Item) => i.type === "computer_call").map((i: Item) => i.action)).toEqual([
      { type: "scroll", x: 100, y: 200, scroll_x: 0, scroll_y: 300 },
      { type: "keypress", keys: ["ctrl", "a"] },
      {
        type: "drag",
        path: [
          { x: 10, y: 20 },
          { x: 300, y: 400 },
        ],
      },
      { type: "click", button: "right", x: 640, y: 360 },
    ]);
  });

  it("actions the caller's union lacks become runs of calls that fold back into one tool_use", async () => {
    claude.setScript([
      { toolUse: [{ name: "computer", input: { action: "triple_click", coordinate: [640, 360] } }] },
      { toolUse: [{ name: "computer", input: { action: "cursor_position" } }] },
      { text: "Done." },
    ]);
    const input = firstTurn("Select the line");
    const first = await respond({ model: "claude", tools: [openaiTool], input });
    const calls = first.output.filter((i: Item) => i.type === "computer_call");
    expect(calls.map((c: Item) => c.action)).toEqual([
      { type: "double_click", x: 640, y: 360 },
      { type: "click", button: "left", x: 640, y: 360 },
    ]);
    const outputs = calls.map((c: Item) => ({
      type: "computer_call_output",
      call_id: c.call_id,
      output: { type: "computer_screenshot", image_url: SHOT },
    }));
    const history = [...input, ...first.output, ...outputs];
    const second = await respond({ model: "claude", tools: [openaiTool], input: history });
    const cursorCall = second.output.find((i: Item) => i.type === "computer_call");
    expect(cursorCall.action).toEqual({ type: "screenshot" });
    const sent = claude.requests[1]!.body.messages;
    expect(sent[1].content).toEqual([
      {
        type: "tool_use",
        id: calls[0].call_id.split("~")[0],
        name: "computer",
        input: { action: "triple_click", coordinate: [640, 360] },
      },
    ]);
    expect(sent[2].content).toHaveLength(1);

    await respond({
      model: "claude",
      tools: [openaiTool],
      input: [
        ...history,
        cursorCall,
        {
          type: "computer_call_output",
          call_id: cursorCall.call_id,
          output: { type: "computer_screenshot", image_url: SHOT },
        },
      ],
    });
    const answer = claude.requests[2]!.body.messages.at(-1).content[0];
    expect(answer.content[0]).toEqual({ type: "text", text: "X=640,Y=360" });
  });

  it("a newer Claude gets computer_20251124 and its beta; a stream carries the computer_call", async () => {
    claude.setScript([{ toolUse: [{ name: "computer", input: { action: "mouse_move", coordinate: [1279, 0] } }] }]);
    const res = await postV1(
      "/responses",
      { model: "claude-opus", tools: [lightcone], input: firstTurn("Move"), stream: true },
      { base: target.base, key: target.key },
    );
    expect(res.status).toBe(200);
    const events = (await readSse(res)).map((d) => JSON.parse(d));
    const done = events.find((e) => e.type === "response.output_item.done" && e.item.type === "computer_call");
    expect(done.item.action).toEqual({ type: "move", x: 999, y: 0 });
    expect(events.at(-1).type).toBe("response.completed");
    const sent = claude.requests[0]!;
    expect(String(sent.headers["anthropic-beta"]).split(",")).toContain("computer-use-2025-11-24");
    expect(sent.body.tools[0]).toMatchObject({ type: "computer_20251124", display_width_px: 1280 });
  });
});

describe("a client's loop on a real page, driven by Claude", () => {
  it("clicks Go, types and presses Enter on the page, then calls done", async () => {
    const session = await createSession({}, target);
    try {
      expect((await execute(session.id, { type: "go_to_url", url: `${site.url}/` }, target)).status).toBe("success");
      claude.setScript([
        { toolUse: [{ name: "computer", input: { action: "left_click", coordinate: [640, 360] } }] },
        { toolUse: [{ name: "computer", input: { action: "type", text: "hello cabin" } }] },
        { toolUse: [{ name: "computer", input: { action: "key", text: "Return" } }] },
        { toolUse: [{ name: "done", input: { message: "submitted hello cabin" } }] },
      ]);
      const screenshot = async () => {
        const shot = await execute(session.id, { type: "screenshot", base64: true }, target);
        return `data:${shot.result.mime_type};base64,${shot.result.screenshot}`;
      };
      const items: Item[] = [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Press Go, type hello cabin, press Enter" },
            { type: "input_image", image_url: await screenshot() },
          ],
        },
      ];
      let finished = false;
      for (let step = 0; step < 6 && !finished; step++) {
        const out = await respond({ model: "claude", tools: [lightcone, DONE_TOOL], input: items });
        items.push(...out.output);
        finished = out.output.some((i: Item) => i.type === "function_call" && i.name === "done");
        for (const call of out.output.filter((i: Item) => i.type === "computer_call")) {
          const ran = await api(
            "POST",
            `/computers/${session.id}/execute`,
            { action: normalizeAction(call.action, lightcone) },
            target,
          );
          expect(ran.body.status, JSON.stringify(ran.body)).toBe("success");
          items.push({
            type: "computer_call_output",
            call_id: call.call_id,
            output: { type: "computer_screenshot", image_url: await screenshot() },
          });
        }
      }
      expect(finished).toBe(true);
      await waitFor(() => site.events.length, {
        until: (n) => n >= 2,
        timeoutMs: 10_000,
        message: "the page's events",
      });
      expect(site.events).toEqual([
        { kind: "click", x: 640, y: 360 },
        { kind: "submit", value: "hello cabin" },
      ]);
    } finally {
      await api("DELETE", `/computers/${session.id}`, undefined, target);
    }
  });
});
