// @needs server desktop
// Live view of desktop sessions through a real server with a real desktop: the
// screencast SSE (JPEG frames of the X display, cursor_position) and /ws input
// (a click, typed text and keys reach the terminal; the file it writes is read back).
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { api } from "./computers-fixtures";
import { canRunDesktops, createDesktop, exec, useDesktopServer } from "./desktop-fixtures";
import { jpegSize, readSse } from "./live-fixtures";
import { waitFor } from "./wait-for";

/** Host ffmpeg processes carrying the marker of desktop session `id` (the screencast's capture). */
function ffmpegOf(id: string): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .filter((pid) => {
      try {
        if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "ffmpeg") return false;
        return readFileSync(`/proc/${pid}/environ`, "latin1")
          .split("\0")
          .some((v) => v.startsWith("CABIN_DESKTOP=") && v.endsWith(`/${id}`));
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(!canRunDesktops)("desktop live view", () => {
  const s = useDesktopServer();

  it("streams JPEG frames of the display and the pointer position; frames stop with the viewer", async () => {
    const d = await createDesktop(s.a);
    // An animated desktop: a terminal printing the time every 20 ms with bash builtins only, no spawns
    // (a still screen sends a frame a second). Bottom right, beside the desktop's own terminal
    // (22,60 994×580), so the click below, which raises that terminal, does not cover it.
    await exec(
      s.a,
      d.id,
      "setsid xterm -geometry 30x8-0-0 -e bash -c 'exec 3<> <(:); while :; do echo $EPOCHREALTIME; read -t 0.02 -u " +
        "3; done' >/dev/null 2>&1 &",
    );
    await waitFor(() => exec(s.a, d.id, "xdotool search --onlyvisible --class xterm | wc -l"), {
      until: (r) => Number(r.stdout.trim()) >= 2,
      message: "the animated terminal's window",
    });
    expect(d.endpoints.screencast).toContain(`/computers/${d.id}/screencast?token=`);
    const abort = new AbortController();
    const res = await fetch(`${d.endpoints.screencast}&fps=15`, { signal: abort.signal });
    expect(res.status).toBe(200);
    const sizes: ReturnType<typeof jpegSize>[] = [];
    // Counted by capture time (metadata.timestamp): a loaded test process may read frames late.
    let inFirstTwoSeconds = 0;
    let firstCapturedAt = 0;
    const cursors: { x: number; y: number }[] = [];
    let firstAt = 0;
    let clicked: Promise<unknown> | null = null;
    for await (const item of readSse(res)) {
      if ("comment" in item) continue;
      if (item.event === "cursor_position") cursors.push(JSON.parse(item.data));
      if (item.event !== "message") continue;
      const event = JSON.parse(item.data);
      sizes.push(jpegSize(Buffer.from(event.image_data, "base64")));
      firstAt ||= Date.now();
      firstCapturedAt ||= event.metadata.timestamp;
      if (event.metadata.timestamp - firstCapturedAt < 2000) inFirstTwoSeconds++;
      // Moves the pointer while frames keep being read.
      clicked ??= api(
        "POST",
        `/computers/${d.id}/execute`,
        { action: { type: "mouse_down", x: 321, y: 123 } },
        s.a,
      ).then(() => api("POST", `/computers/${d.id}/execute`, { action: { type: "mouse_up", x: 321, y: 123 } }, s.a));
      const seenClick = cursors.some((c) => c.x === 321 && c.y === 123);
      const captured = event.metadata.timestamp - firstCapturedAt;
      if ((captured >= 2000 && seenClick) || Date.now() - firstAt > 15_000) break;
    }
    abort.abort();
    await clicked;
    // The figure: at least 10 decodable frames of an animated screen in 2 s (capture time).
    expect(inFirstTwoSeconds).toBeGreaterThanOrEqual(10);
    for (const size of sizes) expect(size).toEqual({ width: 1280, height: 720 });
    expect(cursors).toContainEqual({ x: 321, y: 123 });
    await waitFor(
      async () => ((await (await fetch(`${s.a.base}/api/health`)).json()) as any).checks.sessions.live_view,
      {
        until: (v) => v.capturing === 0 && v.viewers === 0,
        message: "the capture to stop",
      },
    );
    expect(ffmpegOf(d.id)).toEqual([]);
  });

  // Also: the command's file is read back with exec.
  it("/ws: a click, typed text and keys (XTest, Shift included) reach the terminal", async () => {
    const d = await createDesktop(s.a);
    const input = async () => ((await (await fetch(`${s.a.base}/api/health`)).json()) as any).checks.sessions.live_view;
    const before = await input();
    const ws = new WebSocket(d.endpoints.ws);
    const frames: Buffer[] = [];
    const text: any[] = [];
    ws.on("message", (data, isBinary) =>
      isBinary ? frames.push(data as Buffer) : text.push(JSON.parse(String(data))),
    );
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    await waitFor(() => frames.length, { message: "a first frame" });
    expect(jpegSize(frames[0])).toEqual({ width: 1280, height: 720 });
    // Inside the desktop's terminal (22,60 994×580): focus it as a person would.
    ws.send(JSON.stringify({ type: "pointer", action: "down", x: 400, y: 300, button: "left" }));
    ws.send(JSON.stringify({ type: "pointer", action: "up", x: 400, y: 300, button: "left" }));
    ws.send(JSON.stringify({ type: "text", text: "echo typed-through-ws > ~/live" }));
    // Key by key: "." and "x" plain, "T" on the Shift column of the keyboard map, then Enter.
    for (const key of [".", "T", "x", "T", "Enter"]) {
      ws.send(JSON.stringify({ type: "key", action: "down", key }));
      ws.send(JSON.stringify({ type: "key", action: "up", key }));
    }
    const read = await waitFor(() => exec(s.a, d.id, "cat ~/live.TxT 2>/dev/null"), {
      until: (r) => r.stdout.trim() === "typed-through-ws",
      intervalMs: 200,
      message: "the file the typed command writes",
    });
    expect(read.exit_code).toBe(0);
    // Pointer and keys went as XTest events over the server's X connection; only the text went through xdotool.
    const after = await input();
    expect(after.desktop_input_xtest - before.desktop_input_xtest).toBe(12);
    expect(after.desktop_input_xdotool - before.desktop_input_xdotool).toBe(1);
    const closed = new Promise((resolve) => ws.once("close", resolve));
    await api("DELETE", `/computers/${d.id}`, undefined, s.a);
    await closed;
    expect(text.at(-1)).toEqual({ type: "ended", reason: "deleted" });
  });
});
