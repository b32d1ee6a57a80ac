// @needs server light chromium
// The computer-use loop as the public examples run it, on browser sessions:
// driven by the scripted upstream (click Go at its 0-1000 position, type, press
// Enter, call done) through each way Cabin reaches a model — forwarded as is to
// a Responses upstream (under the Lightcone model id, by alias), translated to
// chat completions with the 0-1000 rule, and OpenAI's pixel tool — and on the
// local placeholder model of a fresh install, which must run 5 steps cleanly.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createSession, type Target } from "./computers-fixtures";
import { FORM_SCRIPT, runCuaLoop, startFormSite, type ComputerTool, type FormSite } from "./cua-loop-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { startScriptedUpstream, type ScriptedUpstream } from "./scripted-cua-upstream";
import { waitFor } from "./wait-for";

let gateway: TestServer;
let target: Required<Target>;
let normalized: ScriptedUpstream;
let pixels: ScriptedUpstream;
let site: FormSite;
const sessions: Array<{ id: string; target: Required<Target> }> = [];

const lightconeTool: ComputerTool = {
  type: "computer_use",
  display_width: 1280,
  display_height: 720,
  environment: "browser",
};
const openaiTool: ComputerTool = {
  type: "computer_use_preview",
  display_width: 1280,
  display_height: 720,
  environment: "browser",
};

beforeAll(async () => {
  [normalized, pixels, site] = await Promise.all([
    startScriptedUpstream(),
    startScriptedUpstream({ coordinateSpace: "pixels" }),
    startFormSite(),
  ]);
  gateway = await startServer({
    env: {
      MODELS: JSON.stringify({
        "up.native": {
          backend: "openai-compatible",
          url: normalized.url,
          responses: "native",
          upstreamModel: "northstar",
        },
        "up.translate": { backend: "openai-compatible", url: normalized.url },
        "up.pixels": { backend: "openai-compatible", url: pixels.url },
      }),
      MODEL_ALIASES: JSON.stringify({ "tzafon.northstar-cua-fast": "up.native" }),
    },
  });
  target = { base: gateway.url, key: await createOrgKey(gateway, "CUA Org") };
});

afterEach(async () => {
  while (sessions.length) {
    const s = sessions.pop()!;
    await api("DELETE", `/computers/${s.id}`, undefined, s.target);
  }
  site.events.length = 0;
  normalized.requests.length = 0;
  pixels.requests.length = 0;
});

afterAll(async () => {
  await gateway?.destroy();
  await Promise.all([normalized?.close(), pixels?.close(), site?.close()]);
});

async function formSession(t: Required<Target>) {
  const session = await createSession({}, t);
  sessions.push({ id: session.id, target: t });
  const opened = await api(
    "POST",
    `/computers/${session.id}/execute`,
    { action: { type: "go_to_url", url: `${site.url}/` } },
    t,
  );
  expect(opened.body.status).toBe("success");
  return session.id;
}

/** The page saw the click on Go and then the text submitted with Enter. */
async function expectFormFilled(click: { x: number; y: number }) {
  await waitFor(() => site.events.length, {
    until: (n) => n >= 2,
    timeoutMs: 10_000,
    message: "the page's click and submit events",
  });
  expect(site.events).toEqual([
    { kind: "click", ...click },
    { kind: "submit", value: "hello cabin" },
  ]);
}

describe("a client-side loop driven by a scripted computer-use model", () => {
  // Also: the client rescales 0-1000 and the click lands on Go.
  it("runs under the Lightcone model id (alias), forwarded as is", async () => {
    const sessionId = await formSession(target);
    normalized.setScript(FORM_SCRIPT);
    const run = await runCuaLoop({
      target,
      sessionId,
      model: "tzafon.northstar-cua-fast",
      tool: lightconeTool,
      task: "Press Go, type hello cabin, press Enter",
      maxSteps: 6,
    });
    expect(run.done, JSON.stringify(run.steps)).toBe(true);
    expect(run.steps.flatMap((s) => s.executed.map((e) => e.action))).toEqual([
      { type: "click", x: 640, y: 360, button: "left" },
      { type: "type", text: "hello cabin" },
      { type: "keypress", keys: ["Enter"] },
    ]);
    await expectFormFilled({ x: 640, y: 360 });

    // What the upstream was sent: the tool as the client wrote it, the upstream's model name, and each screenshot
    // inline (Cabin reads its own links itself: no hosted upstream can fetch 127.0.0.1, lib/models/images).
    expect(normalized.requests.map((r) => r.path)).toEqual(Array(4).fill("/v1/responses"));
    const last = normalized.requests.at(-1)!.body;
    expect(last.model).toBe("northstar");
    expect(last.tools[0]).toEqual(lightconeTool);
    const outputs = last.input.filter((item: { type?: string }) => item.type === "computer_call_output");
    expect(outputs).toHaveLength(3);
    for (const o of outputs)
      expect(o.output).toMatchObject({
        type: "input_image",
        image_url: expect.stringMatching(/^data:image\/png;base64,/),
      });

    const models = await (
      await fetch(`${gateway.url}/v1/models/tzafon.northstar-cua-fast`, {
        headers: { authorization: `Bearer ${target.key}` },
      })
    ).json();
    expect(models).toMatchObject({ id: "tzafon.northstar-cua-fast", metadata: { alias_of: "up.native" } });
  });

  // Also: Cabin tells the model the 0-1000 space and builds computer_call items in it.
  it("runs through chat completions", async () => {
    const sessionId = await formSession(target);
    normalized.setScript(FORM_SCRIPT);
    const tool = { ...lightconeTool, environment: "desktop" };
    const run = await runCuaLoop({
      target,
      sessionId,
      model: "up.translate",
      tool,
      task: "Press Go, type hello cabin, press Enter",
      maxSteps: 6,
    });
    expect(run.done, JSON.stringify(run.steps)).toBe(true);
    expect(run.steps[0]!.output.find((item) => item.type === "computer_call")!.action).toEqual({
      type: "click",
      x: 500,
      y: 500,
      button: "left",
    });
    await expectFormFilled({ x: 640, y: 360 });

    const first = normalized.requests[0]!;
    expect(first.path).toBe("/v1/chat/completions");
    const computer = first.body.tools.find((t: { function: { name: string } }) => t.function.name === "computer");
    expect(computer.function.description).toBe(
      "Act on a desktop screen of 1280x720 pixels. x and y are 0-1000 on both axes: 0,0 is the top left, 1000,1000 " +
        "the bottom right.",
    );
    // The screenshots reached the model as images after each tool result.
    const images = normalized.requests
      .at(-1)!
      .body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
      .filter((p: { type: string }) => p.type === "image_url");
    expect(images).toHaveLength(4);
  });

  // Also: the click lands on the same spot.
  it("keeps OpenAI's computer_use_preview in pixels: no rescale by the client", async () => {
    const sessionId = await formSession(target);
    pixels.setScript(FORM_SCRIPT);
    const run = await runCuaLoop({
      target,
      sessionId,
      model: "up.pixels",
      tool: openaiTool,
      task: "Press Go, type hello cabin, press Enter",
      maxSteps: 6,
    });
    expect(run.done, JSON.stringify(run.steps)).toBe(true);
    expect(run.steps[0]!.output.find((item) => item.type === "computer_call")!.action).toEqual({
      type: "click",
      x: 640,
      y: 360,
      button: "left",
    });
    await expectFormFilled({ x: 640, y: 360 });
    expect(
      pixels.requests[0]!.body.tools.find((t: { function: { name: string } }) => t.function.name === "computer")
        .function.description,
    ).toContain("x and y are pixels: x 0-1279, y 0-719");
  });
});

describe("the same loop on a fresh install's placeholder model (the shared server)", () => {
  it("runs 5 steps without an error: screenshots accepted, every call an action /execute runs", {
    timeout: 180_000,
  }, async () => {
    const shared: Required<Target> = { base: inject("baseUrl"), key: inject("apiKey") };
    const sessionId = await formSession(shared);
    // The placeholder writes gibberish when free to answer text, so the call is required; greedy, so the run repeats.
    const run = await runCuaLoop({
      target: shared,
      sessionId,
      model: "tzafon.northstar-cua-fast",
      tool: lightconeTool,
      task: "Press Go",
      maxSteps: 5,
      extra: { tool_choice: { type: "computer_use" }, temperature: 0 },
    });
    expect(
      run.steps.map((s) => [s.status, s.error ?? null]),
      JSON.stringify(run.steps.at(-1)),
    ).toEqual(Array(5).fill([200, null]));
    for (const step of run.steps) {
      expect(step.executed).toHaveLength(1);
      expect(step.executed[0]!.status).toBe(200);
    }
  });
});
