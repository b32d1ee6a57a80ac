// @needs server light chromium
// Screenshots reach a hosted-like upstream: stand-ins on 127.0.0.1 that, like
// every hosted provider, cannot download private URLs (hosted-image-rules.ts:
// OpenAI's "Error while downloading …" invalid_image_url) and decode each inline
// image as a PNG. Cabin inlines its own screenshot links on every path — agent
// tasks (screenshot_mode url and base64), a client's /v1/responses loop
// (translated and native), /v1/chat/completions (streamed and not) — passes
// other URLs as given, and under a model's maxImageEdge sends smaller images,
// tells the model the scaled display and maps its pixel answers back, so the
// clicks still land on a real page.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  agentCall,
  CLICK_TYPE_ENTER,
  ended,
  startRecordingPage,
  waitForTask,
  type RecordingPage,
} from "./agent-fixtures";
import { api, createSession, type Target } from "./computers-fixtures";
import { FORM_SCRIPT, runCuaLoop, startFormSite, type ComputerTool, type FormSite } from "./cua-loop-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { startScriptedUpstream, type ScriptedUpstream } from "./scripted-cua-upstream";
import { waitFor } from "./wait-for";

let server: TestServer;
let target: Required<Target>;
let hosted: ScriptedUpstream;
let hostedPixels: ScriptedUpstream;
let page: RecordingPage;
let site: FormSite;
const sessions: string[] = [];

const lightconeTool: ComputerTool = {
  type: "computer_use",
  display_width: 1280,
  display_height: 720,
  environment: "browser",
};
const openaiTool: ComputerTool = { ...lightconeTool, type: "computer_use_preview" };

beforeAll(async () => {
  [hosted, hostedPixels, page, site] = await Promise.all([
    startScriptedUpstream({ hostedImages: true }),
    startScriptedUpstream({ hostedImages: true, coordinateSpace: "pixels" }),
    startRecordingPage(),
    startFormSite(),
  ]);
  server = await startServer({
    env: {
      MODELS: JSON.stringify({
        "img.native": { backend: "openai-compatible", url: hosted.url, responses: "native" },
        "img.translate": { backend: "openai-compatible", url: hosted.url },
        "img.small": { backend: "openai-compatible", url: hostedPixels.url, maxImageEdge: 640 },
        "img.small.native": {
          backend: "openai-compatible",
          url: hostedPixels.url,
          responses: "native",
          maxImageEdge: 640,
        },
      }),
    },
  });
  target = { base: server.url, key: await createOrgKey(server, "Images Org") };
}, 120_000);

afterEach(async () => {
  while (sessions.length) await api("DELETE", `/computers/${sessions.pop()}`, undefined, target);
  site.events.length = 0;
  page.records.length = 0;
  hosted.requests.length = 0;
  hostedPixels.requests.length = 0;
});

afterAll(async () => {
  await server?.destroy();
  await Promise.all([hosted?.close(), hostedPixels?.close(), page?.close(), site?.close()]);
});

/** A browser session on the form page, and a screenshot link of it (Cabin's capability URL on 127.0.0.1). */
async function formSession() {
  const session = await createSession({}, target);
  sessions.push(session.id);
  const opened = await api(
    "POST",
    `/computers/${session.id}/execute`,
    { action: { type: "go_to_url", url: `${site.url}/` } },
    target,
  );
  expect(opened.body.status).toBe("success");
  const shot = await api("POST", `/computers/${session.id}/screenshot`, {}, target);
  expect(shot.body.result.screenshot_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/computers\/.+\/screenshots\/.+\?token=/);
  return { id: session.id as string, shot: shot.body.result.screenshot_url as string };
}

async function expectFormFilled() {
  await waitFor(() => site.events.length, {
    until: (n) => n >= 2,
    timeoutMs: 10_000,
    message: "the page's click and submit",
  });
  expect(site.events).toEqual([
    { kind: "click", x: 640, y: 360 },
    { kind: "submit", value: "hello cabin" },
  ]);
}

const allImages = (upstream: ScriptedUpstream) => upstream.requests.flatMap((r) => r.images ?? []);

const v1 = async (path: string, body: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${target.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
};

describe("agent tasks on a hosted-like upstream", () => {
  const task = (extra: Record<string, unknown>) => ({
    instruction: "Click Go, type hello agent and press Enter",
    kind: "browser",
    start_url: `${page.url}/`,
    max_steps: 8,
    ...extra,
  });

  for (const [model, mode] of [
    ["img.native", "url"],
    ["img.translate", "base64"],
  ] as const) {
    it(`${model}, screenshot_mode ${mode}: every screenshot inline, the clicks land, the task ends`, async () => {
      hosted.setScript(CLICK_TYPE_ENTER);
      const started = await agentCall(
        { server },
        target.key,
        "POST",
        "/agent/tasks",
        task({ model, screenshot_mode: mode }),
      );
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const done = await waitForTask({ server }, target.key, started.body.task_id, ended);
      expect(done, JSON.stringify(done)).toMatchObject({ status: "completed", end_reason: "done", step_count: 4 });
      await expect
        .poll(() => page.records, { timeout: 10_000 })
        .toEqual([
          { type: "click", x: 650, y: 325 },
          { type: "submit", text: "hello agent" },
        ]);
      // Step k's request carries k+1 screenshots (the first, then one per action), each a 1280x720 PNG.
      expect(hosted.requests.map((r) => r.images?.length)).toEqual([1, 2, 3, 4]);
      for (const image of allImages(hosted)) expect(image).toMatchObject({ width: 1280, height: 720 });
      // What the task answers keeps links (or data URLs in base64 mode), not what the model was sent.
      const shot = done.steps[0].screenshot_url as string;
      expect(shot).toMatch(mode === "url" ? /^http:\/\/127\.0\.0\.1:\d+\/computers\// : /^data:image\/png;base64,/);
    });
  }
});

describe("a client's own loop with screenshot_url", () => {
  for (const model of ["img.native", "img.translate"]) {
    it(`/v1/responses on ${model}: the links reach the model inline and the form is filled`, async () => {
      const { id } = await formSession();
      hosted.setScript(FORM_SCRIPT);
      const run = await runCuaLoop({
        target,
        sessionId: id,
        model,
        tool: lightconeTool,
        task: "Press Go, type hello cabin, press Enter",
        maxSteps: 6,
      });
      expect(run.done, JSON.stringify(run.steps)).toBe(true);
      await expectFormFilled();
      expect(allImages(hosted).length).toBeGreaterThanOrEqual(4);
      for (const image of allImages(hosted)) expect(image).toMatchObject({ width: 1280, height: 720 });
      // The client's conversation (and what Cabin stores) still holds the links it sent.
      expect(JSON.stringify(run.items)).not.toContain("data:image");
    });
  }

  for (const stream of [false, true]) {
    it(`/v1/chat/completions${stream ? " streamed" : ""}: a screenshot link as image_url reaches it`, async () => {
      const { shot } = await formSession();
      hosted.setScript([{ text: "I see a Go button." }]);
      const res = await v1("/v1/chat/completions", {
        model: "img.translate",
        stream,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What is on screen?" },
              { type: "image_url", image_url: { url: shot } },
            ],
          },
        ],
      });
      expect(res.status, res.text).toBe(200);
      expect(res.text).toContain("I see a Go button.");
      expect(hosted.requests.at(-1)!.images).toEqual([{ width: 1280, height: 720, at: "messages[0].content[1]" }]);
    });
  }

  it("a URL that is not Cabin's passes as given: the provider's own refusal comes back", async () => {
    const elsewhere = "http://127.0.0.1:9/elsewhere.png";
    const res = await v1("/v1/responses", {
      model: "img.translate",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "look" },
            { type: "input_image", image_url: elsewhere },
          ],
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toMatchObject({
      code: "invalid_image_url",
      message: expect.stringContaining(`Error while downloading ${elsewhere}.`),
    });
  });

  // Also: it passes as given and the provider refuses it.
  it("a screenshot link whose token does not verify is not read", async () => {
    const { shot } = await formSession();
    const forged = shot.replace(/token=[^&]+/, "token=forged");
    const res = await v1("/v1/chat/completions", {
      model: "img.translate",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: forged } }] }],
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.code).toBe("invalid_image_url");
  });
});

describe("a model with maxImageEdge 640", () => {
  it("translated: 640x360 images, the model told 640x360, its pixel click mapped back onto Go", async () => {
    const { id } = await formSession();
    hostedPixels.setScript(FORM_SCRIPT);
    const run = await runCuaLoop({
      target,
      sessionId: id,
      model: "img.small",
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
    await expectFormFilled();
    const computer = hostedPixels.requests[0]!.body.tools.find((t: any) => t.function?.name === "computer");
    expect(computer.function.description).toContain("640x360 pixels");
    for (const image of allImages(hostedPixels)) expect(image).toMatchObject({ width: 640, height: 360 });
  });

  // Also: the tool declared at 640x360 and the answer's click in the caller's pixels.
  it("native, streamed and not", async () => {
    const { shot } = await formSession();
    for (const stream of [false, true]) {
      hostedPixels.setScript([{ action: { type: "click", x: 500, y: 500, button: "left" } }]);
      const res = await v1("/v1/responses", {
        model: "img.small.native",
        stream,
        tools: [openaiTool],
        input: [
          {
            role: "user",
            content: [
              { type: "input_text", text: "Press Go" },
              { type: "input_image", image_url: shot },
            ],
          },
        ],
      });
      expect(res.status, res.text).toBe(200);
      const sent = hostedPixels.requests.at(-1)!;
      expect(sent.body.tools[0]).toMatchObject({ display_width: 640, display_height: 360 });
      expect(sent.images).toEqual([{ width: 640, height: 360, at: "input[0].content[1]" }]);
      // The upstream answered (320, 180) in its 640x360 view: the caller gets (640, 360) of its 1280x720.
      const response = stream
        ? JSON.parse(/event: response\.completed\ndata: (.*)\n/.exec(res.text)![1]!).response
        : JSON.parse(res.text);
      expect(response.output.find((item: any) => item.type === "computer_call").action).toEqual({
        type: "click",
        x: 640,
        y: 360,
        button: "left",
      });
      if (stream) expect(res.text).not.toMatch(/"x":320/);
    }
  });
});
