// @needs server chromium
// Live view of browser sessions through the running server: the screencast SSE
// (frames, one shared capture that stops with its last viewer, token auth, the
// ended event) and the /ws interactive view (frames out, input in).
import { describe, expect, inject, it } from "vitest";
import WebSocket from "ws";
import { api, execute, html, useSessionSuite, waitFor } from "./computers-fixtures";
import { jpegSize, readSse, startLiveSite } from "./live-fixtures";

const suite = useSessionSuite(startLiveSite);
const session = (body: Record<string, unknown> = {}) =>
  suite.session({ display: { width: 800, height: 600 }, ...body });

async function liveView() {
  const res = await fetch(`${inject("baseUrl")}/api/health`);
  return ((await res.json()) as any).checks.sessions.live_view as {
    capturing: number;
    viewers: number;
    frames: number;
  };
}

/** Collects frames of a screencast URL for `ms` after the first frame, then disconnects. */
async function framesFor(url: string, ms: number, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const frames: { size: ReturnType<typeof jpegSize>; metadata: any }[] = [];
  let firstAt = 0;
  try {
    for await (const item of readSse(res)) {
      if ("comment" in item || item.event !== "message") continue;
      const { image_data, metadata } = JSON.parse(item.data);
      frames.push({ size: jpegSize(Buffer.from(image_data, "base64")), metadata });
      firstAt ||= Date.now();
      if (Date.now() - firstAt >= ms) break;
    }
  } finally {
    abort.abort();
  }
  return frames;
}

describe("screencast (SSE)", () => {
  // Also: the capture stops with the last viewer.
  it("streams ≥ 10 decodable JPEG frames in 2 s of an animated page", async () => {
    const s = await session();
    expect(s.endpoints.screencast).toMatch(new RegExp(`/computers/${s.id}/screencast\\?token=`));
    expect(s.endpoints.ws).toMatch(new RegExp(`^ws://.*/computers/${s.id}/ws\\?token=`));
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/animated` });

    // The endpoint URL works as given, without the API key (EventSource sends no headers).
    const frames = await framesFor(`${s.endpoints.screencast}&fps=15`, 2000);
    expect(frames.length).toBeGreaterThanOrEqual(10);
    for (const frame of frames) {
      expect(frame.size).toEqual({ width: 800, height: 600 });
      expect(frame.metadata.viewport).toEqual({ width: 800, height: 600 });
      expect(typeof frame.metadata.timestamp).toBe("number");
    }
    const stopped = await waitFor("the capture to stop", liveView, (v) => v.capturing === 0 && v.viewers === 0);
    // No capture runs, so no frame is made while nobody watches.
    await html(s.id);
    expect((await liveView()).frames).toBe(stopped.frames);
    // Watching made the session running (it was only created and navigated, already running; still running).
    expect((await api("GET", `/computers/${s.id}`)).body.status).toBe("running");
  });

  it("a viewer marks a ready session running but does not move its idle deadline", async () => {
    const s = await session();
    expect(s.status).toBe("ready");
    const abort = new AbortController();
    const res = await fetch(`${inject("baseUrl")}/computers/${s.id}/screencast`, {
      headers: { authorization: `Bearer ${inject("apiKey")}` },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const read = await api("GET", `/computers/${s.id}`);
    expect(read.body.status).toBe("running");
    expect(read.body.idle_expires_at).toBe(s.idle_expires_at);
    abort.abort();
    await waitFor("the viewer to leave", liveView, (v) => v.viewers === 0);
  });

  it("refuses a bad token, another organization's key, bad settings; ends the stream with the session", async () => {
    const s = await session();
    const base = inject("baseUrl");
    const badToken = await fetch(`${base}/computers/${s.id}/screencast?token=1.${"A".repeat(43)}`);
    expect(badToken.status).toBe(401);
    const foreign = await fetch(`${base}/computers/${s.id}/screencast`, {
      headers: { authorization: `Bearer ${inject("apiKeyB")}` },
    });
    expect(foreign.status).toBe(404);
    const badFps = await fetch(`${s.endpoints.screencast}&fps=99`);
    expect(badFps.status).toBe(400);
    expect(JSON.stringify(await badFps.json())).toContain("fps");

    const res = await fetch(s.endpoints.screencast);
    expect(res.status).toBe(200);
    const events: any[] = [];
    const reading = (async () => {
      for await (const item of readSse(res))
        if (!("comment" in item) && item.event === "ended") events.push(JSON.parse(item.data));
    })();
    await waitFor("the viewer to attach", liveView, (v) => v.viewers === 1);
    expect((await api("DELETE", `/computers/${s.id}`)).status).toBe(204);
    await reading; // the stream closes after `ended`
    expect(events).toEqual([{ reason: "deleted" }]);
    const after = await fetch(s.endpoints.screencast);
    expect(after.status).toBe(409);
  });
});

function openWs(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const binary: Buffer[] = [];
  const text: any[] = [];
  ws.on("message", (data, isBinary) => {
    if (isBinary) binary.push(data as Buffer);
    else text.push(JSON.parse(String(data)));
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    ws.once("error", reject);
  });
  const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  return {
    ws,
    binary,
    text,
    opened,
    closed,
    send: (m: unknown) => ws.send(typeof m === "string" ? m : JSON.stringify(m)),
  };
}

describe("interactive live view (/ws)", () => {
  // Also: bad messages get an error reply.
  it("sends JPEG frames; a click and typed text sent as input reach the page", async () => {
    const s = await session();
    await execute(s.id, { type: "go_to_url", url: `${suite.site.url}/input` });
    const view = openWs(`${inject("baseUrl").replace(/^http/, "ws")}/computers/${s.id}/ws`, {
      authorization: `Bearer ${inject("apiKey")}`,
    });
    await view.opened;
    await waitFor(
      "a first frame",
      async () => view.binary.length,
      (n) => n > 0,
    );
    expect(jpegSize(view.binary[0])).toEqual({ width: 800, height: 600 });

    view.send({ type: "pointer", action: "move", x: 100, y: 150 });
    view.send({ type: "pointer", action: "down", x: 100, y: 150, button: "left" });
    view.send({ type: "pointer", action: "up", x: 100, y: 150, button: "left" });
    view.send({ type: "pointer", action: "down", x: 50, y: 40 }); // focus the textarea
    view.send({ type: "pointer", action: "up", x: 50, y: 40 });
    view.send({ type: "text", text: "hello live" });
    view.send({ type: "key", action: "down", key: "Enter" });
    view.send({ type: "key", action: "up", key: "Enter" });
    const page = await waitFor(
      "the input to reach the page",
      () => html(s.id),
      (h) => h.includes("KEY:Enter"),
    );
    expect(page).toContain("DOWN:0@100,150");
    expect(page).toContain("CLICKED");
    expect(page).toContain("VALUE:hello live");

    view.send("not json");
    view.send({ type: "pointer", action: "move", x: -5, y: 10 });
    view.send({ type: "key", action: "down", key: "ctrl+c" });
    view.send({ type: "teleport" });
    await waitFor(
      "four error replies",
      async () => view.text.filter((m) => m.type === "error").length,
      (n) => n === 4,
    );
    const errors = view.text.filter((m) => m.type === "error").map((m) => m.message);
    expect(errors[0]).toMatch(/JSON/);
    expect(errors[1]).toMatch(/x/);
    expect(errors[2]).toMatch(/ctrl\+c/);
    // The socket stays open and usable after bad messages.
    view.send({ type: "text", text: "!" });
    // (Enter went into the textarea as a new line.)
    await waitFor(
      "more input after errors",
      () => html(s.id),
      (h) => h.includes("VALUE:hello live\n!"),
    );

    // Input is activity: the idle deadline moved.
    expect((await api("GET", `/computers/${s.id}`)).body.idle_expires_at > s.idle_expires_at).toBe(true);
    await api("DELETE", `/computers/${s.id}`);
    expect(await view.closed).toBe(1000);
    expect(view.text.at(-1)).toEqual({ type: "ended", reason: "deleted" });
    await waitFor("the capture to stop", liveView, (v) => v.capturing === 0 && v.viewers === 0);
  });

  it("works with the endpoint's token alone; a bad token is a 401", async () => {
    const s = await session();
    const view = openWs(s.endpoints.ws);
    await view.opened;
    view.ws.close();
    await view.closed;
    const bad = openWs(`${inject("baseUrl").replace(/^http/, "ws")}/computers/${s.id}/ws?token=nope`);
    await expect(bad.opened).rejects.toThrow("status 401");
  });
});
