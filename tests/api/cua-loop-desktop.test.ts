// @needs server desktop
// The computer-use loop of the public examples on a desktop session: the
// desktop navigates its own browser to the loopback page (the host's loopback
// is 10.0.2.2 inside a desktop, let through by SESSION_EGRESS_ALLOW), then the
// scripted upstream (Lightcone's computer_use tool, 0-1000 coordinates, the
// `desktop` environment the examples send) clicks Go, types, presses Enter and
// calls done; the page records the click and the text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./computers-fixtures";
import { FORM_SCRIPT, runCuaLoop, startFormSite, type FormSite } from "./cua-loop-fixtures";
import { canRunDesktops, createDesktop, startDesktopServer, type DesktopServer } from "./desktop-fixtures";
import { startScriptedUpstream, type ScriptedUpstream } from "./scripted-cua-upstream";
import { waitFor } from "./wait-for";

const HOST_LOOPBACK = "10.0.2.2";

let upstream: ScriptedUpstream;
let site: FormSite;
let s: DesktopServer;

describe.skipIf(!canRunDesktops)("a client-side computer-use loop on a desktop session", () => {
  beforeAll(async () => {
    [upstream, site] = await Promise.all([startScriptedUpstream(), startFormSite()]);
    s = await startDesktopServer({
      SESSION_EGRESS_ALLOW: "127.0.0.0/8",
      MODELS: JSON.stringify({ "up.native": { backend: "openai-compatible", url: upstream.url, responses: "native" } }),
      MODEL_ALIASES: JSON.stringify({ "tzafon.northstar-cua-fast": "up.native" }),
    });
  });

  afterAll(async () => {
    await s?.server.destroy();
    await Promise.all([upstream?.close(), site?.close()]);
  });

  it("navigates to the page, then clicks Go, types and presses Enter from the model's 0-1000 answers", {
    timeout: 240_000,
  }, async () => {
    const target = { base: s.a.base!, key: s.a.key! };
    const { id } = await createDesktop(target);
    try {
      const port = new URL(site.url).port;
      const opened = await api(
        "POST",
        `/computers/${id}/execute`,
        { action: { type: "go_to_url", url: `http://${HOST_LOOPBACK}:${port}/` } },
        target,
      );
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      expect(opened.body.status).toBe("success");

      upstream.setScript(FORM_SCRIPT);
      const tool = { type: "computer_use" as const, display_width: 1280, display_height: 720, environment: "desktop" };
      const run = await runCuaLoop({
        target,
        sessionId: id,
        model: "tzafon.northstar-cua-fast",
        tool,
        task: "Press Go, type hello cabin, press Enter",
        maxSteps: 6,
      });
      expect(run.done, JSON.stringify(run.steps)).toBe(true);
      expect(run.steps.flatMap((step) => step.executed.map((e) => e.action))).toEqual([
        { type: "click", x: 640, y: 360, button: "left" },
        { type: "type", text: "hello cabin" },
        { type: "keypress", keys: ["Enter"] },
      ]);

      await waitFor(() => site.events.length, {
        until: (n) => n >= 2,
        timeoutMs: 15_000,
        message: "the page's click and submit events",
      });
      // The page sits inside the desktop browser's window, below its toolbars: the click's page coordinates are
      // the screen's (640, 360) less the window's offset, so only that it landed on Go is certain.
      expect(site.events[0]).toMatchObject({ kind: "click", x: expect.any(Number), y: expect.any(Number) });
      expect(site.events[1]).toEqual({ kind: "submit", value: "hello cabin" });
      expect(upstream.requests.at(-1)!.body.tools[0]).toEqual(tool);
    } finally {
      await api("DELETE", `/computers/${id}`, undefined, target);
    }
  });
});
