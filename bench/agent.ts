// npm run bench:agent — what the server-side agent loop adds per step over
// the model call and the action, through HTTP against a real server
// (production build, own data dir, real Chromium). The model is the scripted
// computer-use upstream (answers at once), so a step is ~all loop + action.
// Floor, measured in the same run on a session of its own: the same action
// and screenshot made by a client over HTTP (POST /execute click, then POST
// /execute screenshot), and the same model call made over HTTP
// (POST /v1/responses), and both as one client step; the loop's step is
// reported against that client step (target: at most 1.1x) and Cabin's own
// share of a step (storing it, events) beside the model's time. Needs `npm run build` first.
//   BENCH_AGENT_STEPS=30  BENCH_AGENT_TASKS=3
import { createServer } from "node:http";
import { createOrgKey, startServer } from "../tests/api/harness";
import { listenOnLoopback } from "../tests/api/loopback";
import { startScriptedUpstream } from "../tests/api/scripted-cua-upstream";
import { pct, printTable, timedClient } from "./timing";

const STEPS = Number(process.env.BENCH_AGENT_STEPS ?? 30);
const TASKS = Number(process.env.BENCH_AGENT_TASKS ?? 3);
const MODEL = "bench.scripted";

const upstream = await startScriptedUpstream();
const page = await listenOnLoopback(
  createServer((_req, res) =>
    res
      .writeHead(200, { "content-type": "text/html" })
      .end("<!doctype html><title>bench</title><button style='width:400px;height:300px'>x</button>"),
  ),
);
const server = await startServer({
  env: {
    LOG_LEVEL: "warn",
    MODELS: JSON.stringify({ [MODEL]: { backend: "openai-compatible", url: upstream.url, responses: "native" } }),
  },
});
const key = await createOrgKey(server, "Bench");
const req = timedClient(server.url, key);
const click = { type: "click", x: 100, y: 100, button: "left" };
const rows: [string, string, string][] = [];
const fmt = (values: number[]) => `p50 ${pct(values, 50).toFixed(1)} ms, p90 ${pct(values, 90).toFixed(1)} ms`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

try {
  // Floor: a client doing the same action + screenshot, and the same model call, over HTTP.
  const session = (await req("POST", "/computers", { kind: "browser" })).body as { id: string };
  await req("POST", `/computers/${session.id}/execute`, { action: { type: "go_to_url", url: `${page.url}/` } });
  const floorAction: number[] = [];
  const floorModel: number[] = [];
  for (let i = 0; i < STEPS; i++) {
    const a = await req("POST", `/computers/${session.id}/execute`, { action: click });
    const s = await req("POST", `/computers/${session.id}/execute`, { action: { type: "screenshot" } });
    floorAction.push(a.ms + s.ms);
    upstream.setScript([{ action: { ...click } }]);
    floorModel.push(
      (
        await req("POST", "/v1/responses", {
          model: MODEL,
          input: "bench",
          store: false,
          tool_choice: "required",
          tools: [{ type: "computer_use", display_width: 1280, display_height: 720, environment: "browser" }],
        })
      ).ms,
    );
  }
  await req("DELETE", `/computers/${session.id}`);

  // The loop: TASKS tasks of STEPS clicks each (the 0–1000 point of (100, 100) px), then done.
  const model: number[] = [];
  const action: number[] = [];
  const loop: number[] = [];
  const total: number[] = [];
  for (let t = 0; t < TASKS; t++) {
    upstream.setScript([
      ...Array.from({ length: STEPS }, () => ({ action: { ...click, x: 78, y: 139 } })),
      { done: { result: "bench" } },
    ]);
    const started = (
      await req("POST", "/agent/tasks", {
        instruction: "bench",
        kind: "browser",
        model: MODEL,
        start_url: `${page.url}/`,
        max_steps: STEPS + 1,
      })
    ).body as { task_id: string };
    let task: any;
    for (;;) {
      task = (await req("GET", `/agent/tasks/${started.task_id}`)).body;
      if (!["running", "paused", "queued"].includes(task.status)) break;
      await sleep(250);
    }
    if (task.status !== "completed") throw new Error(`bench task ended ${task.status}: ${JSON.stringify(task.error)}`);
    for (const step of task.steps.slice(0, STEPS)) {
      model.push(step.timings_ms.model);
      action.push(step.timings_ms.action);
      loop.push(step.timings_ms.total - step.timings_ms.model - step.timings_ms.action);
      total.push(step.timings_ms.total);
    }
  }
  // The same step as a client runs it over HTTP: the model call, then the action and the screenshot.
  const floorStep = floorModel.map((ms, i) => ms + floorAction[i]!);
  rows.push([`floor: client over HTTP, click + screenshot (${STEPS})`, fmt(floorAction), "floor"]);
  rows.push([`floor: client over HTTP, POST /v1/responses (${STEPS})`, fmt(floorModel), "floor"]);
  rows.push([
    `loop step: model call in-process (${model.length})`,
    fmt(model),
    `ratio p50 ${(pct(model, 50) / pct(floorModel, 50)).toFixed(2)} of HTTP`,
  ]);
  rows.push([
    `loop step: action + screenshot in-process (${action.length})`,
    fmt(action),
    `ratio p50 ${(pct(action, 50) / pct(floorAction, 50)).toFixed(2)} of HTTP`,
  ]);
  rows.push([`floor: client loop step over HTTP, model + click + screenshot (${STEPS})`, fmt(floorStep), "floor"]);
  rows.push([
    `loop step: Cabin's own share (store step, events) (${loop.length})`,
    fmt(loop),
    `p50 ${((100 * pct(loop, 50)) / pct(total, 50)).toFixed(1)}% of a step, beside model p50 ` +
      `${pct(model, 50).toFixed(1)} ms`,
  ]);
  rows.push([
    `loop step: total (${total.length})`,
    fmt(total),
    `ratio p50 ${(pct(total, 50) / pct(floorStep, 50)).toFixed(2)} of the client's step (target <= 1.1)`,
  ]);
  printTable(rows);
} finally {
  await server.destroy();
  await upstream.close();
  await page.close();
}
