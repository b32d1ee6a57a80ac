// @needs server desktop
// The driver boundary on a real desktop through HTTP: exec's `env` and its strict
// body, the desktop's page_context (the fields that apply to a screen), and the
// key names it shares with browser sessions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./computers-fixtures";
import { canRunDesktops, createDesktop, exec, startDesktopServer, type DesktopServer } from "./desktop-fixtures";

describe.skipIf(!canRunDesktops)("desktop driver boundary", () => {
  let s: DesktopServer;
  let id: string;
  beforeAll(async () => {
    s = await startDesktopServer();
    id = (await createDesktop(s.a, { display: { width: 1024, height: 768 } })).id;
  });
  afterAll(async () => {
    if (id) await api("DELETE", `/computers/${id}`, undefined, s.a);
    await s?.server.destroy();
  });

  it("exec/sync passes env to the command", async () => {
    const run = await exec(s.a, id, 'printf "%s|%s" "$FOO" "$_UNDER_9"', {
      env: { FOO: "bar baz", _UNDER_9: "x=y;$(id)" },
    });
    expect(run).toMatchObject({ stdout: "bar baz|x=y;$(id)", exit_code: 0 });
    // The desktop's own variables are still there when env does not name them.
    expect((await exec(s.a, id, 'echo "$HOME $FOO"', { env: { FOO: "1" } })).stdout).toBe("/home/user 1\n");
  });

  it("refuses a bad env name or value, and unknown body fields, with a 400 naming them", async () => {
    const badName = await api("POST", `/computers/${id}/exec/sync`, { command: "true", env: { "1BAD": "x" } }, s.a);
    expect(badName.status).toBe(400);
    expect(badName.body.error.param).toBe("env.1BAD");
    expect(badName.body.error.message).toMatch(/env\.1BAD.*environment variable name/);
    const dash = await api("POST", `/computers/${id}/exec/sync`, { command: "true", env: { "A-B": "x" } }, s.a);
    expect(dash.body.error.param).toBe("env.A-B");
    const nul = await api("POST", `/computers/${id}/exec/sync`, { command: "true", env: { A: "x\u0000y" } }, s.a);
    expect(nul.status).toBe(400);
    expect(nul.body.error.param).toBe("env.A");
    const notString = await api("POST", `/computers/${id}/exec/sync`, { command: "true", env: { A: 1 } }, s.a);
    expect(notString.body.error.param).toBe("env.A");
    const typo = await api("POST", `/computers/${id}/exec/sync`, { command: "true", timeout_secs: 5 }, s.a);
    expect(typo.status).toBe(400);
    expect(typo.body.error.message).toMatch(/timeout_secs/);
  });

  it("page_context has the screen's size and scale, nothing a desktop cannot know", async () => {
    const moved = await api("POST", `/computers/${id}/execute`, { action: { type: "click", x: 600, y: 700 } }, s.a);
    expect(moved.body.status).toBe("success");
    expect(moved.body.page_context).toEqual({ viewport_width: 1024, viewport_height: 768, device_scale_factor: 1 });
    const shot = await api("POST", `/computers/${id}/screenshot`, { base64: true }, s.a);
    expect(shot.body.page_context).toEqual({ viewport_width: 1024, viewport_height: 768, device_scale_factor: 1 });
    const waited = await api("POST", `/computers/${id}/execute`, { action: { type: "wait", ms: 1 } }, s.a);
    expect(waited.body.status).toBe("success");
  });

  it("takes the same key names as browser sessions and refuses the same bad ones", async () => {
    for (const key of ["Page_Down", "cmd", "ArrowLeft", "Control_L", "F5", "Return"]) {
      const down = await api("POST", `/computers/${id}/key-down`, { key }, s.a);
      expect(down.body.status, key).toBe("success");
      expect((await api("POST", `/computers/${id}/key-up`, { key }, s.a)).body.status, key).toBe("success");
    }
    const bad = await api("POST", `/computers/${id}/hotkey`, { keys: ["ctrl;rm"] }, s.a);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ param: "keys" });
  });
});
