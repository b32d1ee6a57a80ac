// @needs server chromium
// Every action a model can emit, on a browser session, through /execute, /batch and
// the named paths: OpenAI's computer-use union (every shape the local grammar can
// produce: lib/models/responses/to-chat.ts), the Lightcone SDK's action types and
// `debug`. Each proves its effect on a loopback page that records its events.
// The desktop half is computers-actions-all-desktop.test.ts.
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { api, execute, useSessionSuite, waitFor } from "./computers-fixtures";
import { listenOnLoopback } from "./loopback";

/** A page logging every input event into <pre id="log"> (read back through get_html_content). */
const RECORDER =
  `<!doctype html><html><head><title>recorder</title></head><body style="margin:0">
<input id="a" style="position:absolute;left:10px;top:10px;width:300px;height:40px">
<input id="b" style="position:absolute;left:10px;top:80px;width:300px;height:40px">
<pre id="log" style="position:absolute;left:400px;top:0"></pre>
<div style="height:5000px;width:5000px"></div>
<script>
  const log = [];
  const mods = (e) => (e.shiftKey ? " shift" : "") + (e.ctrlKey ? " ctrl" : "");
  const put = (line) => { log.push(line); document.getElementById("log").textContent = log.join("\\n"); };
  addEventListener("mousemove", (e) => put("mousemove " + e.clientX + "," + e.clientY + mods(e)));
  for (const t of ["mousedown", "mouseup"]) addEventListener(t, (e) => put(t + " " + e.button + " " + ` +
  `e.clientX + "," + e.clientY + mods(e)));
  addEventListener("click", (e) => put("click" + mods(e)));
  addEventListener("dblclick", () => put("dblclick"));
  addEventListener("contextmenu", (e) => { e.preventDefault(); put("contextmenu"); });
  for (const t of ["keydown", "keyup"]) addEventListener(t, (e) => put(t + " " + e.key));
  addEventListener("input", (e) => put("input " + e.target.id + "=" + e.target.value));
  addEventListener("wheel", (e) => put("wheel " + e.deltaX + "," + e.deltaY + mods(e)));
  addEventListener("popstate", () => put("popstate"));
</script></body></html>`;

async function startRecorderSite() {
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(req.url?.startsWith("/step") ? `<!doctype html><title>${req.url}</title><h1>${req.url}</h1>` : RECORDER);
  });
  return listenOnLoopback(server);
}

const suite = useSessionSuite(startRecorderSite);

async function eventLog(id: string): Promise<string[]> {
  const res = await execute(id, { type: "get_html_content" });
  const match = /<pre id="log"[^>]*>([\s\S]*?)<\/pre>/.exec(res.result.html_content as string);
  return (match?.[1] ?? "").split("\n").filter(Boolean);
}

/** Waits until the page logged every line of `expected` after the first `from` lines (in order). */
function logged(id: string, from: number, expected: (string | RegExp)[]) {
  const matchesInOrder = (lines: string[]) => {
    let i = 0;
    for (const line of lines.slice(from))
      if (
        i < expected.length &&
        (typeof expected[i] === "string" ? line === expected[i] : (expected[i] as RegExp).test(line))
      )
        i++;
    return i === expected.length;
  };
  return waitFor(`the page to log ${expected.join(" / ")}`, () => eventLog(id), matchesInOrder, 10_000);
}

async function ok(id: string, action: Record<string, unknown>) {
  const res = await execute(id, action);
  expect(res, JSON.stringify(action)).toMatchObject({ status: "success" });
  return res;
}

async function recorderSession() {
  const s = await suite.session();
  await ok(s.id, { type: "go_to_url", url: `${suite.site.url}/recorder` });
  return s;
}

describe("every action on a browser session", () => {
  it("runs OpenAI's union as the local grammar emits it, each with its effect", async () => {
    const { id } = await recorderSession();
    let n = (await eventLog(id)).length;
    const step = async (action: Record<string, unknown>, expected: (string | RegExp)[]) => {
      await ok(id, action);
      await logged(id, n, expected);
      n = (await eventLog(id)).length;
    };
    await step({ type: "move", x: 200, y: 150 }, ["mousemove 200,150"]);
    await step({ type: "click", x: 50, y: 30, button: "left" }, ["mousedown 0 50,30", "mouseup 0 50,30", "click"]);
    await step({ type: "type", text: "hello" }, ["input a=hello"]);
    await step({ type: "keypress", keys: ["shift", "b"] }, ["keydown Shift", /^keydown B$/i]);
    await step({ type: "keypress", keys: ["Backspace"] }, ["keydown Backspace", "input a=hello"]);
    await step({ type: "click", x: 60, y: 200, button: "right" }, ["mousedown 2 60,200", "contextmenu"]);
    await step({ type: "click", x: 61, y: 200, button: "wheel" }, ["mousedown 1 61,200", "mouseup 1 61,200"]);
    await step({ type: "double_click", x: 70, y: 210 }, [
      "mousedown 0 70,210",
      "click",
      "mousedown 0 70,210",
      "dblclick",
    ]);
    await step(
      {
        type: "drag",
        path: [
          { x: 500, y: 300 },
          { x: 520, y: 310 },
          { x: 560, y: 330 },
        ],
      },
      ["mousedown 0 500,300", /^mousemove 5[2-5]\d,3[1-2]\d$/, "mouseup 0 560,330"],
    );
    await step({ type: "scroll", x: 300, y: 300, scroll_x: 0, scroll_y: 200 }, ["mousemove 300,300", "wheel 0,200"]);
    await step({ type: "scroll", x: 300, y: 300, scroll_x: 120, scroll_y: 0 }, ["wheel 120,0"]);
    const waited = await ok(id, { type: "wait" });
    expect(waited.status).toBe("success");
    const shot = await ok(id, { type: "screenshot" });
    expect(shot.result.screenshot_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/computers\//);
  });

  it("click back and forward go through the tab's history, as a mouse's side buttons do", async () => {
    const { id } = await suite.session();
    await ok(id, { type: "go_to_url", url: `${suite.site.url}/step1` });
    await ok(id, { type: "go_to_url", url: `${suite.site.url}/step2` });
    const back = await ok(id, { type: "click", x: 100, y: 100, button: "back" });
    expect(back.page_context.url).toBe(`${suite.site.url}/step1`);
    const forward = await ok(id, { type: "click", x: 100, y: 100, button: "forward" });
    expect(forward.page_context.url).toBe(`${suite.site.url}/step2`);
    // Nowhere to go: the click is still delivered, and the tab stays where it is.
    expect((await ok(id, { type: "click", x: 100, y: 100, button: "forward" })).page_context.url).toBe(
      `${suite.site.url}/step2`,
    );
  });

  // Also: scroll dx/dy, held keys.
  it("runs the Lightcone SDK's actions: point_and_type, key_down/key_up with key or keys, mouse_down/up", async () => {
    const { id } = await recorderSession();
    let n = (await eventLog(id)).length;
    const step = async (action: Record<string, unknown>, expected: (string | RegExp)[]) => {
      await ok(id, action);
      await logged(id, n, expected);
      n = (await eventLog(id)).length;
    };
    await step({ type: "point_and_type", x: 100, y: 100, text: "typed here" }, [
      "mousedown 0 100,100",
      "click",
      "input b=typed here",
    ]);
    // Playwright reports a held letter as itself, Shift or not.
    await step({ type: "key_down", keys: ["shift", "x"] }, ["keydown Shift", /^keydown [xX]$/]);
    await step({ type: "key_up", keys: ["shift", "x"] }, [/^keyup [xX]$/, "keyup Shift"]);
    await step({ type: "key_down", key: "Control" }, ["keydown Control"]);
    await step({ type: "key_up", key: "Control" }, ["keyup Control"]);
    await step({ type: "mouse_down", x: 600, y: 400 }, ["mousedown 0 600,400"]);
    await step({ type: "mouse_up", x: 610, y: 405 }, ["mouseup 0 610,405"]);
    await step({ type: "scroll", x: 300, y: 300, dx: 0, dy: -100 }, ["wheel 0,-100"]);
    await step({ type: "click", x: 620, y: 410, keys: ["shift"] }, [
      "keydown Shift",
      "mousedown 0 620,410 shift",
      "click shift",
      "keyup Shift",
    ]);
    await step({ type: "move", x: 630, y: 420, keys: ["ctrl"] }, [
      "keydown Control",
      "mousemove 630,420 ctrl",
      "keyup Control",
    ]);
    await step({ type: "right_click", x: 640, y: 430 }, ["mousedown 2 640,430", "contextmenu"]);
    await step({ type: "wait", ms: 10 }, []);
    const both = await api("POST", `/computers/${id}/execute`, { action: { type: "key_down", key: "a", keys: ["b"] } });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/key/);
  });

  it("runs a batch with move inside, and the named paths /move and /point-and-type", async () => {
    const { id } = await recorderSession();
    const n = (await eventLog(id)).length;
    const batch = await api("POST", `/computers/${id}/batch`, {
      actions: [
        { type: "move", x: 250, y: 250 },
        { type: "click", x: 50, y: 30 },
        { type: "type", text: "batched" },
        { type: "keypress", keys: ["Enter"] },
        { type: "wait" },
        { type: "screenshot" },
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.status).toBe("success");
    expect(batch.body.results).toHaveLength(6);
    await logged(id, n, ["mousemove 250,250", "mousedown 0 50,30", "input a=batched", "keydown Enter"]);
    const m = (await eventLog(id)).length;
    expect((await api("POST", `/computers/${id}/move`, { x: 333, y: 222 })).body.status).toBe("success");
    expect((await api("POST", `/computers/${id}/point-and-type`, { x: 100, y: 100, text: "!" })).body.status).toBe(
      "success",
    );
    await logged(id, m, ["mousemove 333,222", "mousedown 0 100,100", /^input b=.*!$/]);
  });

  it("refuses debug on a browser session with a 400 naming why, and a batch holding one runs nothing", async () => {
    const { id } = await recorderSession();
    const direct = await api("POST", `/computers/${id}/debug`, { command: "echo hi" });
    expect(direct.status).toBe(400);
    expect(direct.body.error.message).toMatch(/debug runs a shell command.*browser session.*desktop session/);
    const viaExecute = await api("POST", `/computers/${id}/execute`, {
      action: { type: "debug", debug: { command: "echo hi" } },
    });
    expect(viaExecute.status).toBe(400);
    const n = (await eventLog(id)).length;
    const batch = await api("POST", `/computers/${id}/batch`, {
      actions: [
        { type: "move", x: 5, y: 5 },
        { type: "debug", command: "id" },
      ],
    });
    expect(batch.status).toBe(400);
    expect((await eventLog(id)).slice(n).filter((l) => l.startsWith("mousemove 5,5"))).toEqual([]);
  });

  it("names the field when an action is malformed", async () => {
    const { id } = await suite.session();
    const bad = await api("POST", `/computers/${id}/execute`, { action: { type: "move", x: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/'action\.y'/);
    const unknown = await api("POST", `/computers/${id}/execute`, { action: { type: "teleport" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/Unknown action type "teleport".*move/);
  });
});
