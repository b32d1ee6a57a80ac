// The pieces of the computer-use loop tests: a loopback page that records what
// reaches it, and a client-side loop written the way the public Lightcone
// examples write it (examples/_cua.py `run_cua_loop`): screenshot ->
// /v1/responses with the computer tool and a `done` function -> rescale 0-1000
// to pixels (`computer_use` only) -> /computers/{id}/execute ->
// computer_call_output with the screenshot URL -> repeat.
import { createServer } from "node:http";
import { api, type Target } from "./computers-fixtures";
import { listenOnLoopback, type LoopbackServer } from "./loopback";

export interface PageEvent {
  kind: "click" | "submit";
  x?: number;
  y?: number;
  value?: string;
}

export interface FormSite extends LoopbackServer {
  events: PageEvent[];
}

/**
 * A page whose "Go" button is the top 60% of the viewport (so a click lands on it even below a
 * desktop browser's own toolbars), centred on (640, 360) of a 1280x720 screen: 0-1000 position
 * (500, 500). A click on it records where it landed and focuses the text field; Enter in the
 * field records the text typed. Events are POSTed back to this server, in order.
 */
export async function startFormSite(): Promise<FormSite> {
  const events: PageEvent[] = [];
  const page =
    `<!doctype html><html><head><title>cua form</title><style>
    html, body { margin: 0; height: 100%; }
    #go { position: absolute; left: 0; top: 0; width: 100vw; height: 60vh; font-size: 48px; }
    #field { position: absolute; left: 20vw; top: 75vh; width: 60vw; height: 10vh; font-size: 32px; }
  </style></head><body>
    <button id="go">Go</button><input id="field" autocomplete="off">
    <script>
      const send = (event) => fetch("/event", { method: "POST", body: JSON.stringify(event) });
      go.addEventListener("click", (e) => { send({ kind: "click", x: e.clientX, y: e.clientY }); field.focus(); });
      field.addEventListener("keydown", (e) => { if (e.key === "Enter") send({ kind: "submit", value: ` +
    `field.value }); });
    </script></body></html>`;
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url === "/event") {
      let raw = "";
      req.on("data", (d) => (raw += d));
      req.on("end", () => {
        events.push(JSON.parse(raw) as PageEvent);
        res.end("ok");
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(page);
  });
  return Object.assign(await listenOnLoopback(server), { events });
}

export interface ComputerTool {
  type: "computer_use" | "computer_use_preview";
  display_width: number;
  display_height: number;
  environment: string;
}

/** The `done` function of the public examples (examples/_cua.py DONE_TOOL). */
export const DONE_TOOL = {
  type: "function",
  name: "done",
  description: "Call this when the task is complete.",
  parameters: {
    type: "object",
    properties: { message: { type: "string", description: "Summary of what was accomplished." } },
  },
};

type Item = Record<string, any>;

/** `normalize_action`: 0-1000 coordinates to pixels of the tool's display, keys split on "+". */
export function normalizeAction(action: Item, tool: ComputerTool): Item {
  const out: Item = { ...action };
  if (tool.type === "computer_use") {
    for (const key of ["x", "x1", "x2"])
      if (typeof out[key] === "number") out[key] = Math.floor((out[key] / 1000) * tool.display_width);
    for (const key of ["y", "y1", "y2"])
      if (typeof out[key] === "number") out[key] = Math.floor((out[key] / 1000) * tool.display_height);
    if (Array.isArray(out.path)) out.path = out.path.map((p: Item) => normalizeAction(p, tool));
  }
  if (typeof out.keys === "string") out.keys = out.keys.split("+");
  return out;
}

export interface LoopOptions {
  target: Required<Target>;
  sessionId: string;
  model: string;
  tool: ComputerTool;
  task: string;
  maxSteps: number;
  /** Extra request fields (the placeholder loop pins tool_choice and temperature). */
  extra?: Record<string, unknown>;
}

export interface LoopStep {
  status: number;
  /** The error body when the step failed (a model answer or an action that was not 200). */
  error?: unknown;
  output: Item[];
  /** The actions executed this step, in pixels, with each /execute answer's status. */
  executed: Array<{ action: Item; status: number; body: Item }>;
}

async function screenshotUrl(target: Required<Target>, id: string): Promise<string> {
  const res = await api("POST", `/computers/${id}/screenshot`, {}, target);
  if (res.status !== 200) throw new Error(`screenshot failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.screenshot_url as string;
}

/**
 * `run_cua_loop`: the conversation is kept by the client and sent whole each step. Stops at `done`, no calls, or an
 * error.
 */
export async function runCuaLoop(o: LoopOptions): Promise<{ steps: LoopStep[]; items: Item[]; done: boolean }> {
  const items: Item[] = [
    {
      role: "user",
      content: [
        { type: "input_text", text: o.task },
        { type: "input_image", image_url: await screenshotUrl(o.target, o.sessionId), detail: "auto" },
      ],
    },
  ];
  const steps: LoopStep[] = [];
  for (let step = 1; step <= o.maxSteps; step++) {
    const res = await fetch(`${o.target.base}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${o.target.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: o.model, tools: [o.tool, DONE_TOOL], input: items, ...o.extra }),
    });
    const body = (await res.json()) as Item;
    if (res.status !== 200) {
      steps.push({ status: res.status, error: body, output: [], executed: [] });
      break;
    }
    const output = (body.output ?? []) as Item[];
    const current: LoopStep = { status: 200, output, executed: [] };
    steps.push(current);
    items.push(...output);
    if (output.some((item) => item.type === "function_call" && item.name === "done"))
      return { steps, items, done: true };
    const calls = output.filter((item) => item.type === "computer_call");
    if (!calls.length) break;
    for (const call of calls) {
      const action = normalizeAction(call.action, o.tool);
      const executed = await api("POST", `/computers/${o.sessionId}/execute`, { action }, o.target);
      current.executed.push({ action, status: executed.status, body: executed.body });
      if (executed.status !== 200 || executed.body.status !== "success") {
        current.error = executed.body;
        return { steps, items, done: false };
      }
    }
    const shot = await screenshotUrl(o.target, o.sessionId);
    for (const call of calls)
      items.push({
        type: "computer_call_output",
        call_id: call.call_id,
        output: { type: "input_image", image_url: shot, detail: "auto" },
      });
  }
  return { steps, items, done: false };
}

/** The script the scripted upstream answers: click Go at its 0-1000 position, type, press Enter, done. */
export const FORM_SCRIPT = [
  { text: "I will press Go.", action: { type: "click", x: 500, y: 500, button: "left" } },
  { action: { type: "type", text: "hello cabin" } },
  { action: { type: "keypress", keys: ["Enter"] } },
  { done: { result: "submitted hello cabin" } },
];
