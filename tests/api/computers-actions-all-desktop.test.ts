// @needs server chromium desktop
// Every action a model can emit, on a desktop session: OpenAI's computer-use union
// (every shape the local grammar produces), the Lightcone SDK's action types and
// `debug`, each proven by the X events `xev` records in the desktop. Also: on a
// server with default settings that runs desktops, CDP clients attach to browser
// sessions, and a process inside a desktop cannot reach the pool's DevTools.
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import puppeteer from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, chromiumPidsOf, createSession, waitFor, type Target } from "./computers-fixtures";
import { canRunDesktops, createDesktop, exec, startDesktopServer, type DesktopServer } from "./desktop-fixtures";

/**
 * xev's blocks as short lines: "ButtonPress 1", "KeyPress Shift_L", "MotionNotify 300,200" (root coordinates), "+shift"
 * when Shift is held.
 */
function xevLines(text: string): string[] {
  return text.split(/\n\s*\n/).flatMap((block) => {
    const type = /^(\w+) event/m.exec(block.trim())?.[1];
    if (!type) return [];
    const shift = (Number.parseInt(/state (0x[0-9a-f]+)/.exec(block)?.[1] ?? "0", 16) & 1) === 1 ? " +shift" : "";
    if (type === "ButtonPress" || type === "ButtonRelease")
      return [`${type} ${/button (\d+)/.exec(block)?.[1]}${shift}`];
    if (type === "KeyPress" || type === "KeyRelease")
      return [`${type} ${/\(keysym 0x[0-9a-f]+, ([^)]+)\)/.exec(block)?.[1]}`];
    if (type === "MotionNotify")
      return [`MotionNotify ${/root:\((-?\d+),(-?\d+)\)/.exec(block)?.slice(1).join(",")}${shift}`];
    return [];
  });
}

async function recorder(t: Target, id: string) {
  await exec(
    t,
    id,
    "setsid -f stdbuf -oL xev -geometry 700x500+20+20 -event mouse -event keyboard > /tmp/xev.log 2>&1 < /dev/null",
  );
  const geometry = await waitFor(
    "the xev window",
    () => exec(t, id, "xdotool search --name 'Event Tester' getwindowgeometry --shell"),
    (r) => /X=\d+/.test(r.stdout),
  );
  const [x, y] = [/X=(\d+)/, /Y=(\d+)/].map((re) => Number(re.exec(geometry.stdout)![1]));
  let seen = 0;
  const read = async () => xevLines((await exec(t, id, "cat /tmp/xev.log")).stdout);
  return {
    x,
    y,
    /** Runs one action and waits until xev saw `expected` in order (other events may come between). */
    async step(action: Record<string, unknown>, expected: (string | RegExp)[]) {
      const res = await api("POST", `/computers/${id}/execute`, { action }, t);
      expect(res.body, JSON.stringify(action)).toMatchObject({ status: "success" });
      const lines = await waitFor(
        `xev to see ${expected.join(" / ")}`,
        read,
        (all) => {
          let i = 0;
          for (const line of all.slice(seen))
            if (
              i < expected.length &&
              (typeof expected[i] === "string" ? line === expected[i] : (expected[i] as RegExp).test(line))
            )
              i++;
          return i === expected.length;
        },
        10_000,
      );
      seen = lines.length;
      return res.body;
    },
  };
}

describe.skipIf(!canRunDesktops)("every action on a desktop session", () => {
  // A server of its own with default settings (so CDP is as an operator gets it); its start (migrations, the
  // operator CLI, the server) takes minutes on a machine as loaded as CI, longer than the default hook timeout.
  const suite = {} as DesktopServer;
  beforeAll(async () => {
    Object.assign(suite, await startDesktopServer());
  }, 300_000);
  afterAll(async () => {
    await suite.server?.destroy();
  }, 120_000);

  it("runs OpenAI's union as the local grammar emits it, each with its effect on the screen", async () => {
    const desktop = await createDesktop(suite.a);
    const r = await recorder(suite.a, desktop.id);
    const at = (dx: number, dy: number) => ({ x: r.x + dx, y: r.y + dy });
    await r.step({ type: "move", ...at(200, 150) }, [`MotionNotify ${r.x + 200},${r.y + 150}`]);
    expect((await exec(suite.a, desktop.id, "xdotool getmouselocation")).stdout).toContain(
      `x:${r.x + 200} y:${r.y + 150}`,
    );
    await r.step({ type: "click", ...at(100, 100), button: "left" }, ["ButtonPress 1", "ButtonRelease 1"]);
    await r.step({ type: "type", text: "hi" }, ["KeyPress h", "KeyPress i"]);
    await r.step({ type: "keypress", keys: ["ctrl", "a"] }, ["KeyPress Control_L", "KeyPress a"]);
    await r.step({ type: "click", ...at(100, 100), button: "right" }, ["ButtonPress 3", "ButtonRelease 3"]);
    await r.step({ type: "click", ...at(100, 100), button: "wheel" }, ["ButtonPress 2", "ButtonRelease 2"]);
    await r.step({ type: "click", ...at(100, 100), button: "back" }, ["ButtonPress 8", "ButtonRelease 8"]);
    await r.step({ type: "click", ...at(100, 100), button: "forward" }, ["ButtonPress 9", "ButtonRelease 9"]);
    await r.step({ type: "double_click", ...at(120, 120) }, [
      "ButtonPress 1",
      "ButtonRelease 1",
      "ButtonPress 1",
      "ButtonRelease 1",
    ]);
    await r.step({ type: "drag", path: [at(150, 150), at(200, 160), at(300, 200)] }, [
      "ButtonPress 1",
      `MotionNotify ${r.x + 200},${r.y + 160}`,
      `MotionNotify ${r.x + 300},${r.y + 200}`,
      "ButtonRelease 1",
    ]);
    await r.step({ type: "scroll", ...at(200, 200), scroll_x: 0, scroll_y: 200 }, [
      "ButtonPress 5",
      "ButtonRelease 5",
      "ButtonPress 5",
    ]);
    await r.step({ type: "scroll", ...at(200, 200), scroll_x: -100, scroll_y: 0 }, ["ButtonPress 6"]);
    expect(
      (await api("POST", `/computers/${desktop.id}/execute`, { action: { type: "wait" } }, suite.a)).body.status,
    ).toBe("success");
    const shot = await api("POST", `/computers/${desktop.id}/execute`, { action: { type: "screenshot" } }, suite.a);
    expect(shot.body.result.screenshot_url).toMatch(/\/computers\//);
  }, 120_000);

  it("runs the Lightcone SDK's actions, held keys, a batch with move inside and the named paths", async () => {
    const desktop = await createDesktop(suite.a);
    const r = await recorder(suite.a, desktop.id);
    const at = (dx: number, dy: number) => ({ x: r.x + dx, y: r.y + dy });
    // openbox holds the press (click to focus) before replaying it; the keys must still come after the click.
    await r.step({ type: "point_and_type", ...at(100, 100), text: "ok" }, [
      "ButtonPress 1",
      "ButtonRelease 1",
      "KeyPress o",
      "KeyPress k",
    ]);
    await r.step({ type: "key_down", keys: ["shift", "a"] }, ["KeyPress Shift_L", "KeyPress A"]);
    await r.step({ type: "key_up", keys: ["shift", "a"] }, [/^KeyRelease [aA]$/, "KeyRelease Shift_L"]);
    await r.step({ type: "key_down", key: "ctrl" }, ["KeyPress Control_L"]);
    await r.step({ type: "key_up", key: "ctrl" }, ["KeyRelease Control_L"]);
    await r.step({ type: "mouse_down", ...at(200, 200) }, ["ButtonPress 1"]);
    await r.step({ type: "mouse_up", ...at(210, 210) }, ["ButtonRelease 1"]);
    await r.step({ type: "click", ...at(220, 220), keys: ["shift"] }, [
      "KeyPress Shift_L",
      "ButtonPress 1 +shift",
      "KeyRelease Shift_L",
    ]);
    await r.step({ type: "move", ...at(230, 230), keys: ["shift"] }, [
      "KeyPress Shift_L",
      `MotionNotify ${r.x + 230},${r.y + 230} +shift`,
      "KeyRelease Shift_L",
    ]);
    await r.step({ type: "scroll", ...at(200, 200), dx: 0, dy: -100 }, ["ButtonPress 4"]);
    await r.step({ type: "right_click", ...at(240, 240) }, ["ButtonPress 3"]);
    const batch = await api(
      "POST",
      `/computers/${desktop.id}/batch`,
      {
        actions: [
          { type: "move", ...at(250, 250) },
          { type: "click", ...at(250, 250) },
          { type: "type", text: "b" },
          { type: "wait", ms: 10 },
        ],
      },
      suite.a,
    );
    expect(batch.body).toMatchObject({ status: "success" });
    expect(batch.body.results).toHaveLength(4);
    await r.step({ type: "wait", ms: 1 }, [`MotionNotify ${r.x + 250},${r.y + 250}`, "ButtonPress 1", "KeyPress b"]);
    expect((await api("POST", `/computers/${desktop.id}/move`, at(260, 260), suite.a)).body.status).toBe("success");
    await r.step({ type: "wait", ms: 1 }, [`MotionNotify ${r.x + 260},${r.y + 260}`]);
  }, 120_000);

  it("debug runs a command in the desktop with the SDK's semantics, as /debug and as an action", async () => {
    const desktop = await createDesktop(suite.a);
    const direct = await api(
      "POST",
      `/computers/${desktop.id}/debug`,
      { command: "echo out; echo err >&2; whoami; exit 3" },
      suite.a,
    );
    expect(direct.status).toBe(200);
    expect(direct.body).toMatchObject({
      status: "success",
      result: { exit_code: 3, stdout: "out\nuser\n", stderr: "err\n", timed_out: false, truncated: false },
    });
    expect(direct.body.result.debug_response).toBe("out\nuser\nerr\n");
    const action = await api(
      "POST",
      `/computers/${desktop.id}/execute`,
      {
        action: {
          type: "debug",
          debug: { command: "head -c 100 /dev/zero | tr '\\0' x; cat /etc/hostname >/dev/null", max_output_length: 10 },
        },
      },
      suite.a,
    );
    expect(action.body).toMatchObject({
      status: "success",
      result: { debug_response: "xxxxxxxxxx", truncated: true, exit_code: 0 },
    });
    const slow = await api(
      "POST",
      `/computers/${desktop.id}/debug`,
      { command: "sleep 30", timeout_seconds: 1 },
      suite.a,
    );
    expect(slow.body.result).toMatchObject({ timed_out: true, exit_code: 124 });
    const inBatch = await api(
      "POST",
      `/computers/${desktop.id}/batch`,
      {
        actions: [
          { type: "move", x: 1, y: 1 },
          { type: "debug", command: "echo batched" },
        ],
      },
      suite.a,
    );
    expect(inBatch.body.results[1].result.debug_response).toBe("batched\n");
    const noCommand = await api("POST", `/computers/${desktop.id}/debug`, { timeout_seconds: 5 }, suite.a);
    expect(noCommand.status).toBe(400);
    expect(noCommand.body.error.message).toMatch(/command/);
  }, 120_000);

  it("offers CDP by default beside desktops, and a process in a desktop cannot reach the pool's DevTools", async () => {
    const browserSession = await createSession({}, suite.a);
    expect(browserSession.endpoints.cdp).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/computers\/.+\/cdp/);
    const pw = await chromium.connectOverCDP(browserSession.endpoints.cdp, {
      headers: { authorization: `Bearer ${suite.a.key}` },
      timeout: 30_000,
    });
    try {
      expect(pw.contexts()[0]!.pages().length).toBeGreaterThan(0);
    } finally {
      await pw.close();
    }
    const pup = await puppeteer.connect({
      browserWSEndpoint: browserSession.endpoints.cdp,
      headers: { authorization: `Bearer ${suite.a.key}` },
    });
    try {
      expect((await pup.pages()).length).toBeGreaterThan(0);
    } finally {
      await pup.disconnect();
    }
    // The pool Chromium's DevTools port, as the server itself finds it (DevToolsActivePort in its user data dir).
    const port = devtoolsPortOf(suite.server.dataDir);
    const fromHost = await fetch(`http://127.0.0.1:${port}/json/version`);
    expect(fromHost.status).toBe(200); // the control: the port is live
    const desktop = await createDesktop(suite.a);
    const fromDesktop = await exec(
      suite.a,
      desktop.id,
      `curl -sS --max-time 5 http://127.0.0.1:${port}/json/version; echo "curl=$?"`,
    );
    expect(fromDesktop.stdout).not.toContain("webSocketDebuggerUrl");
    expect(fromDesktop.stdout).toMatch(/curl=(7|28)/);
    await api("DELETE", `/computers/${browserSession.id}`, undefined, suite.a);
  }, 120_000);
});

function devtoolsPortOf(dataDir: string): number {
  for (const pid of chromiumPidsOf(dataDir)) {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (cmdline.some((arg) => arg.startsWith("--type="))) continue;
    const dir = cmdline.find((arg) => arg.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
    if (dir) return Number(readFileSync(path.join(dir, "DevToolsActivePort"), "utf8").split("\n")[0]);
  }
  throw new Error("no pool Chromium of this server found");
}
