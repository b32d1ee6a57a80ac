// @needs server light chromium
// Agent tasks on models with a computer tool of their own. On an
// Anthropic-backed model the loop reaches the Messages API stand-in
// (./anthropic-stand-in.ts) with Claude's computer tool, Claude's clicks and
// keys land on a loopback page in a real browser session, and the task
// finishes with Claude's `done`; the stand-in, like the hosted service,
// fetches no private address, so the screenshots must reach it inline. On a
// native Responses upstream configured with OpenAI's `computer_use_preview`,
// the loop offers that tool and runs its pixel coordinates as they are.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentCall, ended, startRecordingPage, waitForTask, type RecordingPage } from "./agent-fixtures";
import { startAnthropicStandIn, type AnthropicStandIn } from "./anthropic-stand-in";
import { startScriptedUpstream, type ScriptedUpstream } from "./scripted-cua-upstream";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { waitFor } from "./wait-for";

let server: TestServer;
let claude: AnthropicStandIn;
let page: RecordingPage;
let key: string;
let pixels: ScriptedUpstream;

beforeAll(async () => {
  [claude, page, pixels] = await Promise.all([
    startAnthropicStandIn("sk-ant-agent"),
    startRecordingPage(),
    startScriptedUpstream({ coordinateSpace: "pixels" }),
  ]);
  server = await startServer({
    env: {
      MODELS: JSON.stringify({
        claude: { backend: "anthropic", url: claude.url, apiKey: "sk-ant-agent", upstreamModel: "claude-sonnet-4-5" },
        "openai-cua": {
          backend: "openai-compatible",
          url: pixels.url,
          responses: "native",
          computerTool: "computer_use_preview",
        },
      }),
    },
  });
  key = await createOrgKey(server, "Claude Agent Org");
}, 120_000);

afterAll(async () => {
  await server?.destroy();
  await Promise.all([claude?.close(), page?.close(), pixels?.close()]);
});

describe("an agent task on Claude", () => {
  it("clicks, types and presses Enter on the page with Claude's computer tool, then finishes", async () => {
    // The page's Go button is centred on (650, 325) px of the 1280x720 viewport.
    claude.setScript([
      {
        text: "I will click Go.",
        toolUse: [{ name: "computer", input: { action: "left_click", coordinate: [650, 325] } }],
      },
      { toolUse: [{ name: "computer", input: { action: "type", text: "hello agent" } }] },
      { toolUse: [{ name: "computer", input: { action: "key", text: "Return" } }] },
      { toolUse: [{ name: "done", input: { result: "typed hello agent" } }] },
    ]);
    const started = await agentCall({ server }, key, "POST", "/agent/tasks", {
      instruction: "Click Go, type hello agent and press Enter",
      kind: "browser",
      model: "claude",
      start_url: `${page.url}/`,
      max_steps: 8,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const task = await waitForTask({ server }, key, started.body.task_id, ended, 60_000);
    expect(task, JSON.stringify(task)).toMatchObject({ status: "completed", result: "typed hello agent" });
    await waitFor(() => page.records.length, {
      until: (n) => n >= 2,
      timeoutMs: 10_000,
      message: "the page's records",
    });
    expect(page.records).toEqual([
      { type: "click", x: 650, y: 325 },
      { type: "submit", text: "hello agent" },
    ]);

    const first = claude.requests[0]!;
    expect(String(first.headers["anthropic-beta"]).split(",")).toContain("computer-use-2025-01-24");
    expect(first.body.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "computer_20250124", display_width_px: 1280, display_height_px: 720 }),
      ]),
    );
    // The system prompt does not impose the 0-1000 rule on a model with its own tool.
    expect(JSON.stringify(first.body.system)).not.toContain("0-1000");
    const replayed = claude.requests[1]!.body.messages;
    expect(replayed[1].content.at(-1)).toMatchObject({
      type: "tool_use",
      input: { action: "left_click", coordinate: [650, 325] },
    });
    expect(replayed[2].content[0].content[0]).toMatchObject({
      type: "image",
      source: { type: "base64", media_type: "image/png" },
    });
  });
});

describe("an agent task on a native upstream with OpenAI's computer tool", () => {
  it("offers computer_use_preview and runs its pixel coordinates unscaled", async () => {
    page.records.length = 0;
    // Written in 0-1000, answered in pixels of the tool's display: (650, 325) of 1280x720.
    pixels.setScript([
      { action: { type: "click", x: 508, y: 452, button: "left" } },
      { action: { type: "type", text: "hello pixels" } },
      { action: { type: "keypress", keys: ["Enter"] } },
      { done: { result: "typed hello pixels" } },
    ]);
    const started = await agentCall({ server }, key, "POST", "/agent/tasks", {
      instruction: "Click Go, type hello pixels and press Enter",
      kind: "browser",
      model: "openai-cua",
      start_url: `${page.url}/`,
      max_steps: 8,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const task = await waitForTask({ server }, key, started.body.task_id, ended, 60_000);
    expect(task, JSON.stringify(task)).toMatchObject({ status: "completed", result: "typed hello pixels" });
    await waitFor(() => page.records.length, {
      until: (n) => n >= 2,
      timeoutMs: 10_000,
      message: "the page's records",
    });
    expect(page.records).toEqual([
      { type: "click", x: 650, y: 325 },
      { type: "submit", text: "hello pixels" },
    ]);
    const tool = pixels.requests[0]!.body.tools.find((t: { type: string }) => t.type !== "function");
    expect(tool).toMatchObject({ type: "computer_use_preview", display_width: 1280, display_height: 720 });
  });
});
