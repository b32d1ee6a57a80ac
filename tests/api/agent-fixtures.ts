// Shared pieces of the agent-tasks*.test.ts and mcp.test.ts files: a loopback
// page that records the click on its button and the text submitted from its
// field (what a task's actions should do), the script that does exactly that
// in the 0–1000 space, and a Cabin server whose model `agent.scripted` is the
// scripted computer-use upstream (refusing image URLs as a hosted provider does).
import { createServer } from "node:http";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { listenOnLoopback, type LoopbackServer } from "./loopback";
import { startScriptedUpstream, type ScriptedStep, type ScriptedUpstream } from "./scripted-cua-upstream";
import { waitFor } from "./wait-for";

export const SCRIPTED_MODEL = "agent.scripted";

/** The button's centre is at (650, 325) px of a 1280×720 viewport: (508, 451) in the 0–1000 space. */
const PAGE =
  `<!doctype html><html><head><title>Agent target</title><style>
body{margin:0;font:16px sans-serif} #go{position:absolute;left:600px;top:300px;width:100px;height:50px}
#field{position:absolute;left:100px;top:100px;width:300px}</style></head><body>
<form id="form"><input id="field" autocomplete="off"></form><button id="go" type="button">Go</button>
<script>
const record = (body) => fetch('/record', {method: 'POST', body: JSON.stringify(body)});
document.getElementById('go').addEventListener('click', (e) => { record({type: 'click', x: e.clientX, y: ` +
  `e.clientY}); document.getElementById('field').focus(); });
document.getElementById('form').addEventListener('submit', (e) => { e.preventDefault(); record({type: 'submit', ` +
  `text: document.getElementById('field').value}); });
</script></body></html>`;

export interface RecordingPage extends LoopbackServer {
  records: Array<{ type: string; [key: string]: unknown }>;
}

export async function startRecordingPage(): Promise<RecordingPage> {
  const records: RecordingPage["records"] = [];
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url === "/record") {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        records.push(JSON.parse(body));
        res.end("ok");
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(PAGE);
  });
  return Object.assign(await listenOnLoopback(server), { records });
}

/** Click the button, type, press Enter, then `done`: the loop the public examples run. */
export const CLICK_TYPE_ENTER: ScriptedStep[] = [
  { text: "I will click Go.", action: { type: "click", x: 508, y: 451, button: "left" } },
  { action: { type: "type", text: "hello agent" } },
  { action: { type: "keypress", keys: ["Enter"] } },
  { done: { result: "typed hello agent" } },
];

/** Steps that change nothing on the screen, for tests that need a task to keep running. */
export const idleSteps = (n: number): ScriptedStep[] =>
  Array.from({ length: n }, () => ({ action: { type: "screenshot" } }));

export interface AgentWorld {
  server: TestServer;
  upstream: ScriptedUpstream;
  page: RecordingPage;
  key: string;
  keyB: string;
  close(): Promise<void>;
}

export async function startAgentWorld(env: Record<string, string> = {}): Promise<AgentWorld> {
  // Like a hosted provider, it cannot download Cabin's links: every task proves its screenshots went inline.
  const upstream = await startScriptedUpstream({ hostedImages: true });
  const page = await startRecordingPage();
  const server = await startServer({
    env: {
      MODELS: JSON.stringify({
        [SCRIPTED_MODEL]: { backend: "openai-compatible", url: upstream.url, responses: "native" },
      }),
      ...env,
    },
  });
  const [key, keyB] = await Promise.all([createOrgKey(server, "Agent Org"), createOrgKey(server, "Other Org")]);
  const world: AgentWorld = {
    server,
    upstream,
    page,
    key,
    keyB,
    async close() {
      // world.server: a test may have restarted it (a new TestServer on the same data).
      await world.server.destroy();
      await upstream.close();
      await page.close();
    },
  };
  return world;
}

export async function agentCall(
  world: Pick<AgentWorld, "server">,
  key: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${world.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Polls GET /agent/tasks/{id} until `until` holds. */
export function waitForTask(
  world: Pick<AgentWorld, "server">,
  key: string,
  id: string,
  until: (task: any) => boolean,
  timeoutMs = 30_000,
) {
  return waitFor(async () => (await agentCall(world, key, "GET", `/agent/tasks/${id}`)).body, {
    until,
    timeoutMs,
    message: `task ${id}`,
  });
}

export const ended = (task: any) => ["completed", "failed", "stopped"].includes(task?.status);
