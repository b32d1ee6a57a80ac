// Replays of browser sessions (docs/replays.md) on a server of their own: a real Chromium
// records a moving page on 127.0.0.1 through the shared live-view capture, ffmpeg makes
// the MP4 and ffprobe reads it back (H.264, the viewport's size, as long as the recording
// lasted). Start/stop, 409 and 400, 202 while finishing, Range, record: true, DELETE,
// listing and downloading after the session ended, the storage quota, and what a
// restart leaves (rows listed, files served, an expired replay reaped, none left recording).
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Target } from "./computers-fixtures";
import { upload } from "./files-fixtures";
import { createOrgKey, startServer, type TestServer } from "./harness";
import { startLiveSite, type LiveSite } from "./live-fixtures";
import { backdateReplay, download, finished, probe } from "./replays-fixtures";
import { waitFor } from "./wait-for";

const MiB = 1024 * 1024;
/** ffprobe's length against the wall-clock span of the recording: frames are timed by the clock, not by speed. */
const LENGTH_TOLERANCE_SECONDS = 1.5;

describe("browser replays", () => {
  let server: TestServer;
  let site: LiveSite;
  let t: Required<Target>;

  const session = async (body: Record<string, unknown> = {}, target: Target = t) => {
    const res = await api("POST", "/computers", { kind: "browser", ...body }, target);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as string;
  };
  const navigate = (id: string, page: string) =>
    api("POST", `/computers/${id}/navigate`, { url: `${site.url}${page}` }, t);
  /** Lets the recording run until `seconds` of wall-clock time have passed since it started (polled). */
  const recordFor = (startedAt: string, seconds: number) =>
    waitFor(() => Date.now() - Date.parse(startedAt) >= seconds * 1000, { message: `${seconds} s recorded` });

  beforeAll(async () => {
    site = await startLiveSite();
    server = await startServer({
      env: { ORG_STORAGE_MAX_BYTES: String(8 * MiB), BROWSER_STANDBY_MAX_CONTEXTS: "0" },
    });
    t = { base: server.url, key: await createOrgKey(server, "Replays") };
  });
  afterAll(async () => {
    await site?.close();
    await server?.destroy();
  });

  let readyId = "";
  let readySession = "";

  it("records a moving page with a tab switch into an MP4 ffprobe reads; 400, 409, 202, Range", async () => {
    const id = await session();
    await navigate(id, "/animated");
    for (const framerate of [0, 31, 2.5, "10"]) {
      const bad = await api("POST", `/computers/${id}/replays`, { framerate }, t);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain("framerate");
    }
    const started = await api("POST", `/computers/${id}/replays`, { framerate: 10 }, t);
    expect(started.status).toBe(201);
    const replay = started.body;
    expect(replay).toMatchObject({ status: "recording", finished_at: null, framerate: 10 });
    expect(replay.replay_id).toMatch(/^rep_[0-9a-f]{24}$/);
    expect(replay.replay_view_url).toBe(`${server.url}/computers/${id}/replays/${replay.replay_id}`);
    expect(Date.parse(replay.started_at)).not.toBeNaN();

    const again = await api("POST", `/computers/${id}/replays`, {}, t);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain(replay.replay_id);

    const early = await download(id, replay.replay_id, t);
    expect(early.status).toBe(202);
    expect(early.headers.get("retry-after")).toBeTruthy();

    // The active tab as the user sees it: a second tab, switched to and back.
    await recordFor(replay.started_at, 1.5);
    const tab = await api("POST", `/computers/${id}/tabs`, { url: `${site.url}/still` }, t);
    expect(tab.status).toBe(200);
    await recordFor(replay.started_at, 3);
    const tabs = (await api("GET", `/computers/${id}/tabs`, undefined, t)).body.result.tabs as { tab_id: string }[];
    await api("POST", `/computers/${id}/tabs/${tabs[0]!.tab_id}/switch`, {}, t);
    await recordFor(replay.started_at, 4);

    const stopped = await api("POST", `/computers/${id}/replays/${replay.replay_id}/stop`, {}, t);
    expect(stopped.status).toBe(200);
    expect(["processing", "ready"]).toContain(stopped.body.status);
    expect(stopped.body.finished_at).not.toBeNull();
    const wall = (Date.parse(stopped.body.finished_at) - Date.parse(replay.started_at)) / 1000;

    const row = await finished(id, replay.replay_id, t);
    expect(row.status).toBe("ready");
    const file = await download(id, replay.replay_id, t);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("video/mp4");
    expect(file.headers.get("accept-ranges")).toBe("bytes");
    expect(file.data.length).toBe(row.size_bytes);
    const video = probe(file.data);
    expect(video).toMatchObject({ codec: "h264", width: 1280, height: 720 });
    expect(Math.abs(video.durationSeconds - wall)).toBeLessThan(LENGTH_TOLERANCE_SECONDS);
    expect(row).toMatchObject({ width: 1280, height: 720, framerate: 10 });
    expect(Math.abs(row.duration_seconds - video.durationSeconds)).toBeLessThan(0.5);

    const part = await download(id, replay.replay_id, t, { range: "bytes=100-1123" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-1123/${file.data.length}`);
    expect(part.data.equals(file.data.subarray(100, 1124))).toBe(true);
    const tail = await download(id, replay.replay_id, t, { range: "bytes=-10" });
    expect(tail.status).toBe(206);
    expect(tail.data.equals(file.data.subarray(file.data.length - 10))).toBe(true);
    const beyond = await download(id, replay.replay_id, t, { range: `bytes=${file.data.length}-` });
    expect(beyond.status).toBe(416);

    // A new replay may start once the last one stopped.
    const next = await api("POST", `/computers/${id}/replays`, { max_duration_seconds: 1 }, t);
    expect(next.status).toBe(201);
    const second = await finished(id, next.body.replay_id, t);
    expect(second.status).toBe("ready");
    expect(second.duration_seconds).toBeLessThan(1 + LENGTH_TOLERANCE_SECONDS);
    readyId = replay.replay_id;
    readySession = id;
  });

  it("record: true records the whole session; listed and downloadable after it ended; DELETE", async () => {
    const id = await session({ record: true });
    const list = await api("GET", `/computers/${id}/replays`, undefined, t);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const replay = list.body.data[0];
    expect(replay.status).toBe("recording");
    await navigate(id, "/animated");
    await recordFor(replay.started_at, 2);
    expect((await api("DELETE", `/computers/${id}`, undefined, t)).status).toBe(200);

    const row = await finished(id, replay.replay_id, t);
    expect(row.status).toBe("ready");
    expect(row.finished_at).not.toBeNull();
    const file = await download(id, replay.replay_id, t);
    expect(file.status).toBe(200);
    expect(probe(file.data)).toMatchObject({ codec: "h264", width: 1280, height: 720 });

    const gone = await api("DELETE", `/computers/${id}/replays/${replay.replay_id}`, undefined, t);
    expect(gone.status).toBe(204);
    expect((await api("GET", `/computers/${id}/replays`, undefined, t)).body.data).toEqual([]);
    expect((await download(id, replay.replay_id, t)).status).toBe(404);
    expect(existsSync(path.join(server.dataDir, "replays", `${replay.replay_id}.mp4`))).toBe(false);
  });

  it("a full organization storage is a 413 on start and on record: true, leaving nothing", async () => {
    const full = { base: server.url, key: await createOrgKey(server, "Full") };
    const id = await session({}, full);
    expect((await upload(id, { name: "big.bin", data: randomBytes(8 * MiB) }, full)).status).toBe(201);
    const refused = await api("POST", `/computers/${id}/replays`, {}, full);
    expect(refused.status).toBe(413);
    expect(refused.body.error.message).toContain("ORG_STORAGE_MAX_BYTES");
    expect((await api("GET", `/computers/${id}/replays`, undefined, full)).body.data).toEqual([]);
    const create = await api("POST", "/computers", { record: true }, full);
    expect(create.status).toBe(413);
    const live = (await api("GET", "/computers?type=live", undefined, full)).body as { id: string }[];
    expect(live.map((s) => s.id)).toEqual([id]);
    await api("DELETE", `/computers/${id}`, undefined, full);
  });

  it("after a restart: replays listed and served, an expired one reaped, none left recording", async () => {
    const expiring = await session();
    const old = await api("POST", `/computers/${expiring}/replays`, { max_duration_seconds: 1 }, t);
    expect((await finished(expiring, old.body.replay_id, t)).status).toBe("ready");
    await backdateReplay(server.databaseUrl, old.body.replay_id, 30);

    const recording = await session();
    const running = await api("POST", `/computers/${recording}/replays`, {}, t);
    expect(running.status).toBe(201);
    await recordFor(running.body.started_at, 1);
    await server.kill("SIGKILL");
    server = await server.restart();

    const kept = await finished(readySession, readyId, t);
    expect(kept.status).toBe("ready");
    const file = await download(readySession, readyId, t);
    expect(file.status).toBe(200);
    expect(probe(file.data).codec).toBe("h264");

    const settled = await finished(recording, running.body.replay_id, t);
    expect(["ready", "failed"]).toContain(settled.status);
    if (settled.status === "failed") expect(settled.reason).toContain("server stopped");

    await waitFor(async () => (await api("GET", `/computers/${expiring}/replays`, undefined, t)).body.data, {
      until: (data: unknown[]) => data.length === 0,
      message: "the expired replay reaped",
    });
    expect(existsSync(path.join(server.dataDir, "replays", `${old.body.replay_id}.mp4`))).toBe(false);
  });
});
