// One Cabin server for the task specs (tasks, task-replay, handoff), shared by the
// worker that runs them rather than one per file: its model `agent.scripted` is the
// scripted computer-use upstream, and two loopback pages give tasks somewhere to go
// (the recording page of the agent API tests, and a page that keeps moving so a
// task's recording has frames to keep). Tests set the upstream's script themselves.
import { test as base } from "@playwright/test";
import { createServer } from "node:http";
import { startRecordingPage, SCRIPTED_MODEL, type RecordingPage } from "../api/agent-fixtures";
import { startServer, type TestServer } from "../api/harness";
import { listenOnLoopback, type LoopbackServer } from "../api/loopback";
import { startScriptedUpstream, type ScriptedUpstream } from "../api/scripted-cua-upstream";

export { expect } from "@playwright/test";
export { SCRIPTED_MODEL };

export interface ScriptedWorld {
  server: TestServer;
  upstream: ScriptedUpstream;
  site: RecordingPage;
  moving: LoopbackServer;
}

const MOVING_PAGE =
  "<!doctype html><title>Moving</title><style>#s{width:160px;height:160px;margin:40px;background:#2563eb;" +
  "animation:r 1s linear infinite}@keyframes r{to{transform:rotate(360deg)}}</style><div id=s></div>";

export const test = base.extend<{ world: ScriptedWorld }, { scriptedWorld: ScriptedWorld }>({
  scriptedWorld: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const upstream = await startScriptedUpstream();
      const site = await startRecordingPage();
      const moving = await listenOnLoopback(
        createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(MOVING_PAGE)),
      );
      const server = await startServer({
        env: {
          MODELS: JSON.stringify({
            [SCRIPTED_MODEL]: { backend: "openai-compatible", url: upstream.url, responses: "native" },
          }),
        },
      });
      await use({ server, upstream, site, moving });
      await server.destroy();
      await Promise.all([upstream.close(), site.close(), moving.close()]);
    },
    { scope: "worker", timeout: 180_000 },
  ],
  world: async ({ scriptedWorld }, use) => use(scriptedWorld),
});
