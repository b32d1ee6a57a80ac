// @needs server chromium desktop
// Desktop sessions through HTTP against a real server with real desktops: create,
// screenshot, xdotool input, exec/sync, display size, and the browser-only refusals.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrgKey, startServer } from "./harness";
import { api } from "./computers-fixtures";
import { waitFor } from "./wait-for";
import {
  canRunDesktops,
  createDesktop,
  desktopHealth,
  exec,
  pngStats,
  screenshot,
  startDesktopServer,
  type DesktopServer,
} from "./desktop-fixtures";

describe.skipIf(!canRunDesktops)("desktop sessions", () => {
  let s: DesktopServer;
  beforeAll(async () => {
    s = await startDesktopServer({ DESKTOP_EXEC_MAX_OUTPUT_BYTES: "65536" });
  });
  afterAll(async () => {
    await s?.server.destroy();
  });

  it("starts a real desktop: screenshot, typing into the terminal, exec reads it back, status running", async () => {
    const d = await createDesktop(s.a);
    expect(d).toMatchObject({ kind: "desktop", status: "ready", display: { width: 1280, height: 720 } });
    expect((await desktopHealth(s.a)).live_desktops).toBe(1);

    const before = await screenshot(s.a, d.id);
    const stats = pngStats(before);
    expect(stats).toMatchObject({ width: 1280, height: 720 });
    expect(stats.colors).toBeGreaterThan(3); // a terminal with a title bar, not a blank screen

    const typed = await api("POST", `/computers/${d.id}/type`, { text: "echo typed-by-xdotool > ~/typed.txt\n" }, s.a);
    expect(typed.status).toBe(200);
    expect(typed.body.status).toBe("success");
    const read = await waitFor(() => exec(s.a, d.id, "cat ~/typed.txt"), {
      until: (r) => r.stdout.trim() === "typed-by-xdotool",
      timeoutMs: 5000,
      intervalMs: 100,
      message: "the typed command's file",
    });
    expect(read).toMatchObject({ stdout: "typed-by-xdotool\n", exit_code: 0 });
    const after = await screenshot(s.a, d.id);
    expect(after.equals(before)).toBe(false);

    const state = await api("GET", `/computers/${d.id}`, undefined, s.a);
    expect(state.body.status).toBe("running");
    expect((await api("DELETE", `/computers/${d.id}`, undefined, s.a)).status).toBe(204);
  });

  it("has a browser inside: Chromium opens a window on the desktop", async () => {
    const d = await createDesktop(s.a);
    const run = await exec(
      s.a,
      d.id,
      [
        "(chromium 'data:text/html,<title>cabin-inside</title>hi' >/dev/null 2>&1 &)",
        "for i in $(seq 1 150); do xdotool search --onlyvisible --name cabin-inside >/dev/null 2>&1 && echo window " +
          "&& break; sleep 0.1; done",
      ].join("; "),
      { timeout_seconds: 40 },
    );
    expect(run.stdout).toBe("window\n");
    expect((await api("DELETE", `/computers/${d.id}`, undefined, s.a)).status).toBe(204);
  });

  it("runs input actions with xdotool and refuses browser-only ones", async () => {
    const d = await createDesktop(s.a);
    for (const action of [
      { type: "click", x: 200, y: 200 },
      { type: "double_click", x: 200, y: 200 },
      { type: "right_click", x: 5, y: 5 },
      { type: "keypress", keys: ["Escape"] },
      { type: "scroll", x: 300, y: 300, dy: 300 },
      { type: "drag", x1: 10, y1: 10, x2: 50, y2: 50 },
      { type: "mouse_down", x: 100, y: 100 },
      { type: "mouse_up", x: 100, y: 100 },
      { type: "key_down", key: "shift" },
      { type: "key_up", key: "shift" },
      { type: "wait", ms: 10 },
    ]) {
      const res = await api("POST", `/computers/${d.id}/execute`, { action }, s.a);
      expect([action.type, res.status, res.body.status]).toEqual([action.type, 200, "success"]);
    }
    const jpeg = await api(
      "POST",
      `/computers/${d.id}/execute`,
      { action: { type: "screenshot", format: "jpeg", base64: true } },
      s.a,
    );
    expect(Buffer.from(jpeg.body.result.screenshot, "base64").subarray(0, 2).toString("hex")).toBe("ffd8");
    const url = await api("POST", `/computers/${d.id}/screenshot`, {}, s.a);
    expect(url.body.result.screenshot_url).toMatch(/\/screenshots\//);

    // navigate, html and tabs run in the desktop's own Chromium (docs/desktop-browsing.md); these stay browser-only.
    const viewport = await api(
      "POST",
      `/computers/${d.id}/execute`,
      { action: { type: "set_viewport", width: 800, height: 600 } },
      s.a,
    );
    expect(viewport.status).toBe(400);
    expect(viewport.body.error.message).toMatch(/browser sessions/);
    expect((await api("POST", `/computers/${d.id}/change-proxy`, { proxy_url: null }, s.a)).status).toBe(400);
    await api("DELETE", `/computers/${d.id}`, undefined, s.a);
  });

  it("exec/sync: exit codes, stderr, cwd, timeouts and bounded output; 400 on browser sessions", async () => {
    const d = await createDesktop(s.a);
    expect(await exec(s.a, d.id, "echo out; echo err >&2; exit 3")).toMatchObject({
      stdout: "out\n",
      stderr: "err\n",
      exit_code: 3,
    });
    expect((await exec(s.a, d.id, "pwd; id -un", { cwd: "/tmp" })).stdout).toBe("/tmp\nuser\n");
    const slow = await exec(s.a, d.id, "sleep 30", { timeout_seconds: 1 });
    expect(slow).toMatchObject({ exit_code: 124, timed_out: true });
    const big = await exec(s.a, d.id, "head -c 500000 /dev/zero | tr '\\0' a");
    expect(big.truncated).toBe(true);
    expect(big.stdout.length).toBe(65536);
    // a GUI app in the background does not hold the call
    const launched = await exec(s.a, d.id, "xterm & echo started");
    expect(launched.stdout).toBe("started\n");

    expect((await api("POST", `/computers/${d.id}/exec/sync`, {}, s.a)).status).toBe(400);
    expect((await api("POST", `/computers/${d.id}/exec/sync`, { command: "true" }, s.b)).status).toBe(404);
    const browser = await api("POST", "/computers", { kind: "browser" }, s.a);
    const onBrowser = await api("POST", `/computers/${browser.body.id}/exec/sync`, { command: "true" }, s.a);
    expect(onBrowser.status).toBe(400);
    expect(onBrowser.body.error.message).toMatch(/desktop sessions/);
    await api("DELETE", `/computers/${browser.body.id}`, undefined, s.a);
    await api("DELETE", `/computers/${d.id}`, undefined, s.a);
  });

  it("honours display size, refuses use_advanced_proxy, and reports itself in health", async () => {
    const d = await createDesktop(s.a, { display: { width: 1024, height: 768 } });
    expect((await exec(s.a, d.id, "xdpyinfo | grep dimensions")).stdout).toMatch(/1024x768 pixels/);
    expect(pngStats(await screenshot(s.a, d.id))).toMatchObject({ width: 1024, height: 768 });
    await api("DELETE", `/computers/${d.id}`, undefined, s.a);

    const proxy = await api("POST", "/computers", { kind: "desktop", use_advanced_proxy: true }, s.a);
    expect(proxy.status).toBe(400);
    expect(proxy.body.error.param).toBe("use_advanced_proxy");
    // DELETE answers once the row is ended; the desktop is torn down right after.
    await waitFor(() => desktopHealth(s.a), {
      until: (h) => h.ok === true && h.live_desktops === 0,
      message: "the deleted desktop torn down",
    });
  });
});

describe("desktop sessions where they cannot run", () => {
  it("answers 400 naming the reason, reports it in health, and browser sessions keep working", async () => {
    // A server whose image directory is empty: the same answer as on a host without Linux or root.
    const empty = mkdtempSync(path.join(os.tmpdir(), "cabin-no-images-"));
    const server = await startServer({ env: { DESKTOP_IMAGES_DIR: empty } });
    try {
      const t = { base: server.url, key: await createOrgKey(server, "No desktops") };
      const res = await api("POST", "/computers", { kind: "desktop" }, t);
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe("kind");
      expect(res.body.error.message).toMatch(/^desktop sessions are not available on this server: /);
      expect(res.body.error.message).toMatch(
        canRunDesktops ? /desktop base image .* is not built/ : /Desktop sessions need/,
      );
      const desktop = await desktopHealth(t);
      expect(desktop.ok).toBe(false);
      expect(res.body.error.message).toContain(desktop.message);
      const browser = await api("POST", "/computers", { kind: "browser" }, t);
      expect(browser.status).toBe(200);
      expect((await api("DELETE", `/computers/${browser.body.id}`, undefined, t)).status).toBe(204);
    } finally {
      await server.destroy();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
