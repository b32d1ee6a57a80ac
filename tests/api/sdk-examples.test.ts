// @needs server chromium
// The public examples' own loop shape (examples/simple.py, desktop.py, shell.py, streaming.py,
// persistent_session.py, competitor_research.py, visualize.py, interactive.py), which the
// client-history loop of cua-loop*.test.ts does not cover: the conversation chained on the
// server with `previous_response_id`, each step's screenshot sent back as a
// `computer_call_output`, only the computer tool offered, and every action run through the
// Python ComputerSession's named paths (`execute_action`: click -> /click, keypress -> /hotkey,
// key_down -> /key-down with keys[0], wait -> /execute {type: wait, ms}). The 0-1000 answer is
// rescaled by display/1000 as the examples' `_px` does. docs/sdk-compatibility.md has the table.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createSession, type Target } from "./computers-fixtures";
import { startFormSite, type FormSite } from "./cua-loop-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { startScriptedUpstream, type ScriptedUpstream } from "./scripted-cua-upstream";
import { waitFor } from "./wait-for";

type Item = Record<string, any>;
const TOOL = { type: "computer_use", display_width: 1280, display_height: 720, environment: "desktop" };
const px = (coord: number, dim: number) => Math.floor((coord / 1000) * dim);

let site: FormSite;
let upstream: ScriptedUpstream;
let gateway: TestServer;
const sessions: Array<{ id: string; t: Required<Target> }> = [];

beforeAll(async () => {
  [site, upstream] = await Promise.all([startFormSite(), startScriptedUpstream()]);
  gateway = await startServer({
    env: {
      MODELS: JSON.stringify({ "up.translate": { backend: "openai-compatible", url: upstream.url } }),
      MODEL_ALIASES: JSON.stringify({ "tzafon.northstar-cua-fast": "up.translate" }),
    },
  });
}, 300_000);
afterAll(async () => {
  await Promise.all(sessions.map(({ id, t }) => api("DELETE", `/computers/${id}`, undefined, t)));
  await gateway?.destroy();
  await Promise.all([site?.close(), upstream?.close()]);
});

/** Click Go at its 0-1000 position, type, press Enter, then answer in words (no computer_call: the loops stop). */
const formScript = (text: string) => [
  { action: { type: "click", x: 500, y: 300, button: "left" } },
  { action: { type: "type", text } },
  { action: { type: "keypress", keys: ["Enter"] } },
  { text: "Submitted the form." },
];

/**
 * One ComputerSession call; the examples have no error handling, so anything but a successful ActionResult stops them.
 */
async function named(t: Required<Target>, id: string, name: string, body: Item) {
  const res = await api("POST", `/computers/${id}/${name}`, body, t);
  expect([res.status, res.body.status], `${name} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toEqual([
    200,
    "success",
  ]);
  return res.body as Item;
}

/** `execute_action` of the examples, branch for branch; a type they do not list does nothing. */
async function executeAction(t: Required<Target>, id: string, a: Item): Promise<string[]> {
  const w = TOOL.display_width,
    h = TOOL.display_height;
  const calls: Array<[string, Item]> = [];
  const at = (x: number, y: number) => ({ x: px(x, w), y: px(y, h) });
  if (a.type === "click") calls.push(["click", at(a.x, a.y)]);
  else if (a.type === "double_click") calls.push(["double-click", at(a.x, a.y)]);
  else if (a.type === "triple_click")
    calls.push(["click", at(a.x, a.y)], ["click", at(a.x, a.y)], ["click", at(a.x, a.y)]);
  else if (a.type === "right_click") calls.push(["right-click", at(a.x, a.y)]);
  else if (a.type === "type") calls.push(["type", { text: a.text }]);
  else if (a.type === "key" || a.type === "keypress") calls.push(["hotkey", { keys: a.keys }]);
  else if (a.type === "key_down" || a.type === "key_up") calls.push([a.type.replace("_", "-"), { key: a.keys[0] }]);
  else if (a.type === "scroll" || a.type === "hscroll") {
    calls.push([
      "scroll",
      { dx: a.scroll_x || 0, dy: a.type === "scroll" ? a.scroll_y || 0 : 0, ...at(a.x || 0, a.y || 0) },
    ]);
  } else if (a.type === "navigate") calls.push(["navigate", { url: a.url }]);
  else if (a.type === "drag")
    calls.push(["drag", { x1: px(a.x, w), y1: px(a.y, h), x2: px(a.end_x, w), y2: px(a.end_y, h) }]);
  else if (a.type === "wait") calls.push(["execute", { action: { type: "wait", ms: 2000 } }]);
  for (const [name, body] of calls) await named(t, id, name, body);
  return calls.map(([name]) => name);
}

/** The examples' main loop: first request with the task and a screenshot, then chained by previous_response_id. */
async function chainedLoop(t: Required<Target>, id: string, task: string, maxSteps: number) {
  const shot = async () => String((await named(t, id, "screenshot", { base64: false })).result.screenshot_url);
  const create = async (body: Item) => {
    const res = await api("POST", "/v1/responses", { model: "tzafon.northstar-cua-fast", tools: [TOOL], ...body }, t);
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
    return res.body as Item;
  };
  let response = await create({
    input: [
      {
        role: "user",
        content: [
          { type: "input_text", text: task },
          { type: "input_image", image_url: await shot(), detail: "auto" },
        ],
      },
    ],
  });
  const ran: string[][] = [];
  for (let step = 0; step < maxSteps; step++) {
    const call = (response.output as Item[]).find((o) => o.type === "computer_call");
    if (!call || ["terminate", "done", "answer"].includes(call.action.type)) break;
    ran.push(await executeAction(t, id, call.action));
    await named(t, id, "execute", { action: { type: "wait", ms: 1000 } }); // computer.wait(1)
    response = await create({
      previous_response_id: response.id,
      input: [
        {
          type: "computer_call_output",
          call_id: call.call_id,
          output: { type: "input_image", image_url: await shot(), detail: "auto" },
        },
      ],
    });
  }
  return { ran, last: response };
}

/**
 * The page saw the click on Go where (500, 300) of 0-1000 lands on 1280x720, pixel (640, 216), then the text submitted.
 */
async function expectForm(text: string) {
  await waitFor(() => Promise.resolve(site.events.length), {
    until: (n) => n >= 2,
    message: "the page's click and submit events",
  });
  expect(site.events).toEqual([
    { kind: "click", x: 640, y: 216 },
    { kind: "submit", value: text },
  ]);
}

describe("the examples' chained loop (previous_response_id, computer_call_output, named paths)", () => {
  it("clicks Go from the model's 0-1000 answer, types and presses Enter, then stops on the model's words", {
    timeout: 240_000,
  }, async () => {
    upstream.setScript(formScript("chained hello"));
    const t = { base: gateway.url, key: await createOrgKey(gateway, "Examples Org") };
    const id = (await createSession({ kind: "browser" }, t)).id;
    sessions.push({ id, t });
    await named(t, id, "navigate", { url: site.url });
    const { ran, last } = await chainedLoop(t, id, "Press Go, type chained hello and press Enter", 5);
    expect(ran).toEqual([["click"], ["type"], ["hotkey"]]);
    expect((last.output as Item[]).find((o) => o.type === "message")?.content[0].text).toBe("Submitted the form.");
    await expectForm("chained hello");
    // Each chained request reached the model with the history Cabin stored: the last one still carries the task.
    expect(upstream.requests).toHaveLength(4);
    expect(JSON.stringify(upstream.requests[3]!.body)).toContain("type chained hello and press Enter");
  });

  it("README.md's agent loop runs as printed (its page swapped for the loopback one) and fills the form", {
    timeout: 240_000,
  }, async () => {
    site.events.length = 0;
    upstream.setScript(formScript("hello cabin"));
    const readme = readFileSync(path.join(process.cwd(), "README.md"), "utf8");
    const code = /## An agent loop[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code, "the js block of README.md's agent section").toContain("/v1/responses");
    const script = code!
      .replace("https://example.com", site.url)
      .replace("Open the 'More information' link", "Press Go, type hello cabin, press Enter");
    const t = { base: gateway.url, key: await createOrgKey(gateway, "Readme Org") };
    // Asynchronously: the scripted model and the page live in this process and must keep answering.
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        env: { ...process.env, CABIN_URL: t.base, CABIN_API_KEY: t.key },
        stdio: ["ignore", "ignore", "pipe"],
        timeout: 180_000,
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("close", (code) => resolve({ code, stderr }));
    });
    expect(run).toEqual({ code: 0, stderr: "" });
    await expectForm("hello cabin");
  });

  it("runs unchanged on a fresh install's placeholder model: every model call and action answers without an error", {
    timeout: 240_000,
  }, async () => {
    const shared = { base: inject("baseUrl"), key: inject("apiKey") };
    const id = (await createSession({ kind: "browser" }, shared)).id;
    sessions.push({ id, t: shared });
    await named(shared, id, "navigate", { url: site.url });
    // The placeholder cannot see; whether it answers with actions or words, nothing may fail (named() and create()
    // assert).
    const { last } = await chainedLoop(shared, id, "Press Go", 5);
    expect(last.object).toBe("response");
  });
});
