// @needs server chromium
// What watching a browser session costs Chromium, through the running server
// (docs/live-view-cost.md): the capture lets Chromium encode about the asked
// fps of an animating page, not every repaint, and the last repaint of an
// animation still shows.
import { describe, expect, inject, it } from "vitest";
import WebSocket from "ws";
import { api, execute, useSessionSuite, waitFor } from "./computers-fixtures";
import { jpegSize, startLiveSite } from "./live-fixtures";

const suite = useSessionSuite(startLiveSite);

async function liveView() {
  const res = await fetch(`${inject("baseUrl")}/api/health`);
  return (
    (await res.json()) as {
      checks: { sessions: { live_view: { capturing: number; viewers: number; browser_screencast_frames: number } } };
    }
  ).checks.sessions.live_view;
}

function watch(id: string, fps: number) {
  const ws = new WebSocket(`${inject("baseUrl").replace(/^http/, "ws")}/computers/${id}/ws?fps=${fps}`, {
    headers: { authorization: `Bearer ${inject("apiKey")}` },
  });
  const frames: Buffer[] = [];
  const last = { at: 0 };
  ws.on("message", (data, isBinary) => {
    if (!isBinary) return;
    frames.push(data as Buffer);
    last.at = Date.now();
  });
  const opened = new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  /** Resolves once more than `count` frames have come. */
  const framesPast = (what: string, count: number) =>
    waitFor(
      what,
      async () => frames.length,
      (n) => n > count,
    );
  /** Resolves once no frame has come for 1.5 s; times out if the capture never goes quiet. */
  const quiet = (what: string) =>
    waitFor(
      what,
      async () => Date.now() - last.at,
      (quietMs) => quietMs > 1500,
      15_000,
      100,
    );
  return { ws, frames, opened, framesPast, quiet };
}

describe("live view cost (browser)", () => {
  it("Chromium encodes about the asked fps of a page that repaints every frame, not every repaint", async () => {
    const s = await suite.session({ display: { width: 800, height: 600 } });
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/fullscreen` });
    const view = watch(s.id, 5);
    await view.opened;
    await view.framesPast("frames of the animation", 2);
    const before = { at: Date.now(), stats: await liveView(), frames: view.frames.length };
    // Ten more frames of a page Chromium repaints up to 60 times a second (about two seconds at fps=5).
    await waitFor(
      "ten more frames",
      async () => view.frames.length,
      (n) => n >= before.frames + 10,
      30_000,
      50,
    );
    const after = { at: Date.now(), stats: await liveView(), frames: view.frames.length };
    const seconds = (after.at - before.at) / 1000;
    const encoded = after.stats.browser_screencast_frames - before.stats.browser_screencast_frames;
    // Chromium sends one frame per acknowledgement (at most one per 200 ms, and one at the window's edge),
    // plus the three it may have had out unacknowledged when counting began.
    expect(encoded).toBeLessThanOrEqual(Math.ceil(seconds * 5) + 1 + 3);
    expect(encoded).toBeGreaterThan(0);
    expect(after.frames - before.frames).toBeGreaterThan(0);
    for (const frame of view.frames) expect(jpegSize(frame)).toEqual({ width: 800, height: 600 });
    view.ws.close();
    await api("DELETE", `/computers/${s.id}`);
    await waitFor("the capture to stop", liveView, (v) => v.capturing === 0 && v.viewers === 0);
  });

  it("goes quiet on a still page: the settle capture's own repaint starts no further capture", async () => {
    const s = await suite.session({ display: { width: 800, height: 600 } });
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/flip` });
    // fps 5: the pacer's busy span (two intervals) outlasts a settle capture, where a loop showed before.
    const view = watch(s.id, 5);
    await view.opened;
    await view.framesPast("a first frame", 0);
    await view.quiet("no frame for 1.5 s");
    const before = await liveView();
    const frames = view.frames.length;
    // A key press on the still page (it turns to noise) still shows, then the capture goes quiet again.
    await execute(s.id, { type: "keypress", keys: ["k"] });
    await view.framesPast("the key press's frame", frames);
    await view.quiet("quiet again");
    const encoded = (await liveView()).browser_screencast_frames - before.browser_screencast_frames;
    expect(encoded).toBeLessThanOrEqual(4);
    view.ws.close();
    await api("DELETE", `/computers/${s.id}`);
  });

  it("shows the last repaint of an animation although Chromium's frames are paced", async () => {
    const s = await suite.session({ display: { width: 800, height: 600 } });
    const view = watch(s.id, 5);
    await view.opened;
    await view.framesPast("a first frame", 0);
    const blank = view.frames[0].length;
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/burst` });
    // The page ends on full-screen noise, a frame many times the size of the blank or box frames before it.
    const frames = await waitFor(
      "a frame showing the page's last repaint (noise)",
      async () => view.frames,
      (all) => all.some((f) => f.length > blank * 10 && f.length > 100_000),
    );
    expect(frames.length).toBeGreaterThan(1);
    view.ws.close();
    await api("DELETE", `/computers/${s.id}`);
  });
});
