// @needs server chromium desktop
// A desktop replay (docs/replays.md "Desktops"): the X display inside the desktop's
// namespace, through the desktop's own screen capture (the live view's ffmpeg x11grab,
// shared with any viewer), encoded to an MP4 that ffprobe reads with the display's size
// and the recording's length.
import { describe, expect, it } from "vitest";
import { api } from "./computers-fixtures";
import { canRunDesktops, createDesktop, exec, useDesktopServer } from "./desktop-fixtures";
import { download, finished, probe } from "./replays-fixtures";
import { waitFor } from "./wait-for";

describe.skipIf(!canRunDesktops)("desktop replays", () => {
  const s = useDesktopServer();

  it("records the display into an H.264 MP4 of its size and length, listed after the desktop ended", async () => {
    const d = await createDesktop(s.a, { display: { width: 1024, height: 768 } });
    // Something that moves: a terminal printing the time every 50 ms (bash builtins only).
    await exec(
      s.a,
      d.id,
      "setsid xterm -geometry 30x8-0-0 -e bash -c 'exec 3<> <(:); while :; do echo $EPOCHREALTIME; read -t 0.05 " +
        "-u 3; done' >/dev/null 2>&1 &",
    );
    const started = await api("POST", `/computers/${d.id}/replays`, { framerate: 5 }, s.a);
    expect(started.status).toBe(201);
    const replay = started.body;
    await waitFor(() => Date.now() - Date.parse(replay.started_at) >= 3000, { message: "3 s recorded" });
    const stopped = await api("POST", `/computers/${d.id}/replays/${replay.replay_id}/stop`, {}, s.a);
    expect(stopped.status).toBe(200);
    const wall = (Date.parse(stopped.body.finished_at) - Date.parse(replay.started_at)) / 1000;
    expect((await api("DELETE", `/computers/${d.id}`, undefined, s.a)).status).toBe(204);

    const row = await finished(d.id, replay.replay_id, s.a);
    expect(row.status).toBe("ready");
    const file = await download(d.id, replay.replay_id, { base: s.a.base!, key: s.a.key! });
    expect(file.status).toBe(200);
    const video = probe(file.data);
    expect(video).toMatchObject({ codec: "h264", width: 1024, height: 768 });
    expect(Math.abs(video.durationSeconds - wall)).toBeLessThan(1.5);
    // Another organization sees none of it.
    expect((await api("GET", `/computers/${d.id}/replays`, undefined, s.b)).status).toBe(404);
  });
});
